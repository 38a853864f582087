/* sre.h — stochastic regular expressions (SRE) over timing PMFs.
 *
 * A service's response time is predicted from the times of its steps, the
 * probabilities of its branches and the iteration-count distributions of its
 * loops, following Koziolek & Firus 2007 ("Parametric performance contracts:
 * non-Markovian loop modelling and an experimental evaluation", ENTCS 176):
 *
 *   sequence     a b        the PMF of a + b: the convolution of the two PMFs
 *   alternative  p: a | q: b  the mixture p·f_a + q·f_b (p + q = 1)
 *   loop         a*{k: p_k} the loop runs k times with probability p_k
 *                           (non-Markovian: any count distribution), so its
 *                           PMF is sum_k p_k · f_a^{*k} (k-fold convolution)
 *   Markov loop  a*[p]      after each pass (and before the first) the body
 *                           runs again with probability p: geometric count,
 *                           P(k) = (1-p) p^k, mean p/(1-p)
 *
 * Every PMF lives on one grid of width w chosen by the caller (the paper's
 * "sampling rate"); see pmf.h for the grid and the FFT convolution.
 *
 * ==== The language =====================================================
 *
 * A model is a list of statements that bind names; a name may be used before
 * the statement that binds it. Definitions may use other definitions (one
 * service's result is a symbol of the services that call it), but never
 * themselves, directly or through others. `#` starts a comment that runs to
 * the end of the line.
 *
 *     # a static-file service in the style of the paper's StaticFileProvider
 *     symbol build  = trace("alternative.trace", "buildPath");
 *     symbol probe  = csv("probe.csv");
 *     symbol log    = {12: 0.25, 13: 0.5, 14: 0.25};     # inline: time: probability
 *     prob   p_file = trace("alternative.trace", "target", "file");
 *     count  probes = {0: 0.2, 5: 0.8};
 *     def    deliver = log open header content;
 *     def    handle  = build check (p_file: deliver | else: probe*probes deliver);
 *
 * EBNF (ISO 14977; blanks, newlines and comments may separate any tokens):
 *
 *     model     = { statement } ;
 *     statement = "symbol" , name , [ "=" , source ] , ";"
 *               | "prob" , name , "=" , ( number | branchof ) , ";"
 *               | "count" , name , "=" , ( table | loopof ) , ";"
 *               | "def" , name , "=" , expr , ";" ;
 *     source    = table
 *               | "csv" , "(" , string , ")"
 *               | "trace" , "(" , string , "," , string , ")"      (* a step *)
 *               | "service" , "(" , string , ")"                   (* T lines *)
 *               | "client" , "(" , string , ")"                    (* C lines *)
 *               | "glue" , "(" , string , ")"                      (* T - sum of S *)
 *               | "joint" , "(" , string , "," , string , { "," , string } , ")" ;
 *     branchof  = "trace" , "(" , string , "," , string , "," , string , ")" ;
 *     loopof    = "trace" , "(" , string , "," , string , ")" ;
 *     table     = "{" , number , ":" , number , { "," , number , ":" , number } , "}" ;
 *     expr      = branch , { "|" , branch } ;
 *     branch    = [ prob , ":" ] , seq ;
 *     seq       = postfix , { postfix } ;
 *     postfix   = atom , { "*" , loop } ;
 *     loop      = table | "[" , prob , "]" | name ;
 *     atom      = name | "(" , [ expr ] , ")" ;
 *     prob      = number | name | "else" ;
 *     name      = ( letter | "_" ) , { letter | digit | "_" } ;   (* not a keyword *)
 *     string    = '"' , { character | '\"' | '\\' } , '"' ;      (* one line *)
 *     number    = [ "+" | "-" ] , decimal with optional fraction and exponent ;
 *
 * Reserved words: symbol prob count def else. The source words csv, trace,
 * service, client, glue and joint mean a source only where one is expected (after
 * `=` in a statement) and may be used as names.
 *
 * Meaning:
 *   - `symbol` binds a name to a PMF. Sources: an inline table of
 *     value: probability pairs; a CSV file read by proper_pmf_parse_csv; the
 *     measured durations of one step in a trace (trace.h format); the
 *     service times (T), client latencies (C), the per-request sum of
 *     several steps measured together (`joint`: keeps their dependence,
 *     which convolving them separately would lose), or the per-request "glue"
 *     (T minus the sum of that request's step durations: the time the
 *     service spends outside its measured steps) of a trace. A symbol
 *     without a source must be bound before evaluation (proper_sre_set).
 *   - Time unit: microseconds for every trace source (the trace's
 *     nanoseconds / 1000); tables and CSV files are taken as they are, so
 *     write them in microseconds too when mixing them with traces.
 *   - Relative paths are relative to the directory of the model file (for
 *     text parsed without a file: to the working directory).
 *   - `prob` binds a probability in [0, 1]: a number, or the fraction of a
 *     branch's executions in a trace that took the given choice.
 *   - `count` binds an iteration-count PMF: a table whose keys are
 *     non-negative integers (at most PROPER_SRE_MAX_ITERATIONS), or the
 *     measured iteration counts of a loop in a trace.
 *   - `def` binds a name to an expression. Evaluating a model evaluates one
 *     definition (by default the last one in the text).
 *   - In an alternative every branch has a probability (a number, a `prob`
 *     name, or `else`: one minus the others, at most one per alternative);
 *     they must sum to 1 within PROPER_SRE_PROB_TOL, else the alternative's
 *     position is reported. A single expression without `|` needs none.
 *   - `()` takes no time (a point mass at 0), e.g. an empty branch.
 *   - `*[p]` needs p < 1. Postfix loops bind tighter than sequence, sequence
 *     tighter than `|`; parentheses group.
 *
 * ==== What-if overrides ================================================
 *
 * proper_sre_set (and `proper sre --set`) changes a model without editing
 * its file. An assignment is `target = value`:
 *
 *     A=file.csv  A=csv("x.csv")  A={3: 0.5, 4: 0.5}  A=trace("t", "step")
 *                             a symbol gets a new source (a bare value is a
 *                             CSV path)
 *     p_file=0.3              a prob gets a new value (or a trace(...))
 *     probes={5: 1}           a count gets a new table (or a trace(...))
 *     handle=a b c            a def gets a new expression
 *     handle.loop={5: 1}      the one loop inside definition `handle` becomes
 *     handle.loop=[0.8]       ... a loop with that count table, a Markovian
 *     handle.loop=probes      ... loop, or a loop over a named count
 *     handle.alt=0.3,0.7      the one alternative inside `handle` gets these
 *                             branch probabilities (numbers, in order)
 *
 * Paths in overrides are relative to the working directory. `.loop` and
 * `.alt` look only at the definition's own expression (not through the
 * definitions it uses) and need exactly one loop / alternative there. On
 * failure the model is unchanged.
 *
 * ==== Evaluation =======================================================
 *
 * Evaluation works bottom-up on the expression DAG. Identical
 * sub-expressions (same structure, same symbols, same probabilities, in any
 * definition) are hash-consed and computed once, and so is every definition
 * however often it is used. A sequence convolves its parts two at a time,
 * always the two with the fewest bins first (Huffman's order: the same
 * result, since convolution is commutative, with the long transforms on as
 * few operands as possible). Each operation's result is truncated: trailing
 * bins holding at most `truncate_eps` of probability mass move to the PMF's
 * `tail` (proper_pmf_truncate), which keeps long loops from growing the grid
 * without bound; a Markovian loop's infinite support is cut at `markov_eps`
 * (proper_pmf_markov_loop).
 *
 * ==== Service effect automata ==========================================
 *
 * proper_sre_from_automaton turns a probabilistic service effect automaton
 * (as in Koziolek & Firus's Fig. 1: states stand for internal actions,
 * transitions for external calls, both take time) into an SRE by state
 * elimination (the GNFA construction).
 * Input, one item per line, `#` comments:
 *
 *     start s0          (optional; default: the source state of the first edge)
 *     final s2          (one or more final states; required)
 *     s0 a s1 0.3       (edge: from, label, to, probability)
 *     s1 b s0 1
 *     s0 c s2 0.7
 *
 * A path through the automaton takes the time of each state it passes and
 * of each label it takes, and ends with the final state's time: an edge
 * contributes `from label`, stopping in final state f contributes `f`.
 * A state's outgoing probabilities sum to 1 within PROPER_SRE_PROB_TOL, or to
 * at most 1 for a final state (the rest is the probability of stopping).
 * Eliminating a state k rewires each path i -> k -> j into
 * R_ik (R_kk)*[w_kk] R_kj with probability w_ik w_kj / (1 - w_kk), and joins
 * parallel paths into an alternative weighted by their probabilities; the
 * state eliminated next is the one that grows the expressions least (the
 * size of the paths it creates minus those it removes), then fewest
 * predecessors x successors, ties in order of first appearance. An SRE
 * larger than PROPER_SRE_MAX_AUTOMATON_SIZE symbol occurrences is refused
 * (PROPER_ELIMIT): state elimination can grow exponentially. The automaton above becomes
 * `(s0 a s1 b)*[0.3] s0 c s2`. The model gets one `symbol` (without source)
 * per state and label, and the result as `def service`.
 *
 * ==== Thread safety ====================================================
 *
 * A model caches the data its sources load (trace files, CSV text), so
 * evaluation writes to it: use one model per thread, or evaluate under a
 * lock. Different models share nothing.
 */
#ifndef PROPER_SRE_H
#define PROPER_SRE_H

#include "core.h"
#include "trace.h"
#include "pmf.h"

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Branch probabilities, count tables and inline PMFs must sum to 1 within
 * this absolute tolerance. */
#ifndef PROPER_SRE_PROB_TOL
#define PROPER_SRE_PROB_TOL 1e-9
#endif
/* Deepest nesting of parentheses and postfix loops the parser accepts (it
 * recurses; fuzzed input must not exhaust the stack). */
#ifndef PROPER_SRE_MAX_NESTING
#define PROPER_SRE_MAX_NESTING 200
#endif
/* Largest iteration count in a count table: the count PMF becomes a dense
 * array of that length. */
#ifndef PROPER_SRE_MAX_ITERATIONS
#define PROPER_SRE_MAX_ITERATIONS 100000
#endif
/* Default mass cut from the tails after each operation. */
#ifndef PROPER_SRE_DEFAULT_TRUNCATE_EPS
#define PROPER_SRE_DEFAULT_TRUNCATE_EPS 1e-12
#endif
/* Default tail mass at which a Markovian loop's geometric sum stops. */
#ifndef PROPER_SRE_DEFAULT_MARKOV_EPS
#define PROPER_SRE_DEFAULT_MARKOV_EPS 1e-12
#endif
/* Default grid width (µs for traces) of proper_sre_opts_default. */
#ifndef PROPER_SRE_DEFAULT_WIDTH
#define PROPER_SRE_DEFAULT_WIDTH 1.0
#endif
/* proper_sre_from_automaton fails (PROPER_ELIMIT) when the SRE it builds
 * would hold more than this many symbol occurrences as written, or when
 * building it would take more than 16 times as many node operations: state
 * elimination can grow exponentially with the automaton's interconnection
 * (a random 300-state automaton ran without bound). */
#ifndef PROPER_SRE_MAX_AUTOMATON_SIZE
#define PROPER_SRE_MAX_AUTOMATON_SIZE 1000000
#endif
/* Evaluation notes a symbol as rounded (proper_sre_eval_info.rounded; the
 * CLI warns) when putting its values onto the grid moves its mean by more
 * than this fraction of itself. */
#ifndef PROPER_SRE_ROUNDING_RTOL
#define PROPER_SRE_ROUNDING_RTOL 1e-3
#endif
/* Nanoseconds (trace.h) per microsecond (trace sources' unit). */
#define PROPER_SRE_NS_PER_UNIT 1000.0

/* Expression nodes. */
enum proper_sre_node_kind {
    PROPER_SRE_EMPTY = 0, /* () : no time */
    PROPER_SRE_SYMBOL,    /* a `symbol` */
    PROPER_SRE_REF,       /* a `def` used by name */
    PROPER_SRE_SEQ,       /* kids one after the other */
    PROPER_SRE_ALT,       /* one kid, with probs[i] */
    PROPER_SRE_LOOP,      /* kids[0] repeated, count from a table or a `count` */
    PROPER_SRE_MLOOP      /* kids[0] repeated, re-entered with probs[0] */
};

/* Bindings (statements). */
enum proper_sre_binding_kind {
    PROPER_SRE_BIND_SYMBOL = 0,
    PROPER_SRE_BIND_PROB,
    PROPER_SRE_BIND_COUNT,
    PROPER_SRE_BIND_DEF
};

/* Where a binding's data comes from. */
enum proper_sre_source_kind {
    PROPER_SRE_SRC_NONE = 0, /* symbol without source; prob given as a number */
    PROPER_SRE_SRC_TABLE,    /* inline {key: prob, ...} */
    PROPER_SRE_SRC_CSV,      /* csv("path") */
    PROPER_SRE_SRC_TRACE,    /* trace("path", "name" [, "choice"]) */
    PROPER_SRE_SRC_SERVICE,  /* service("path") */
    PROPER_SRE_SRC_CLIENT,   /* client("path") */
    PROPER_SRE_SRC_GLUE,     /* glue("path") */
    PROPER_SRE_SRC_JOINT     /* joint("path", "step", "step", ...) */
};

/* A probability in an expression. */
enum proper_sre_prob_kind {
    PROPER_SRE_P_NUMBER = 0, /* value */
    PROPER_SRE_P_NAME,       /* a `prob` binding (name, ref) */
    PROPER_SRE_P_ELSE        /* one minus the alternative's other branches */
};

/* An inline table of key: probability pairs, in the order written. */
typedef struct proper_sre_table {
    size_t n;
    double *keys;
    double *probs;
} proper_sre_table;

typedef struct proper_sre_prob {
    int kind;       /* proper_sre_prob_kind */
    double value;   /* NUMBER: the value; NAME/ELSE: the value used by the last evaluation */
    char *name;     /* NAME */
    size_t ref;     /* NAME: binding index (after resolution) */
    int line, col;
} proper_sre_prob;

typedef struct proper_sre_node {
    int kind;              /* proper_sre_node_kind */
    int line, col;         /* where it starts in the text */
    int from_set;          /* 1: parsed from a proper_sre_set value (positions are in that text) */
    char *name;            /* SYMBOL, REF: the name; LOOP: a `count` name or NULL */
    size_t ref;            /* binding index of that name (after resolution) */
    size_t *kids;          /* SEQ, ALT: the parts; LOOP, MLOOP: kids[0] is the body */
    size_t n_kids;
    proper_sre_prob *probs;/* ALT: one per kid; MLOOP: probs[0], the re-entry probability */
    proper_sre_table table;/* LOOP without a name: keys are iteration counts */
} proper_sre_node;

typedef struct proper_sre_source {
    int kind;          /* proper_sre_source_kind */
    char *path;        /* CSV, TRACE, SERVICE, CLIENT, GLUE: as written */
    char *item;        /* TRACE: step, branch or loop name */
    char *choice;      /* TRACE for a prob: the branch's choice */
    char **steps;      /* JOINT: the steps summed per request */
    size_t n_steps;
    int from_cwd;      /* 1: path relative to the working directory (an override) */
    proper_sre_table table; /* TABLE */
} proper_sre_source;

typedef struct proper_sre_binding {
    char *name;
    int kind;                /* proper_sre_binding_kind */
    int line, col;           /* position of the name in its statement */
    proper_sre_source source;/* SYMBOL; PROB and COUNT from a trace or table */
    double prob;             /* PROB given as a number */
    size_t root;             /* DEF: node index of its expression */
} proper_sre_binding;

/* private: data loaded for the sources (trace files, CSV text) */
typedef struct proper_sre_readed {
    char *path;          /* resolved path */
    int is_trace;
    proper_trace trace;  /* is_trace */
    char *text;          /* CSV text */
    size_t len;
} proper_sre_readed;

/* A model. Read its members freely; change it only through the API. */
typedef struct proper_sre {
    proper_sre_node *nodes;   /* an arena: replaced nodes stay until free */
    size_t n_nodes, nodes_cap;
    proper_sre_binding *bindings; /* in the order written */
    size_t n_bindings, bindings_cap;
    char *file;               /* name used in errors, or NULL */
    char *dir;                /* directory for relative paths ("" = working directory) */
    proper_sre_readed *loaded;
    size_t n_loaded, loaded_cap;
} proper_sre;

/* Evaluation settings. */
typedef struct proper_sre_opts {
    double width;        /* grid width (> 0), in the model's time unit (µs for traces) */
    double truncate_eps; /* mass cut from the tails after each operation (>= 0) */
    double markov_eps;   /* tail mass at which Markovian loops stop (> 0) */
} proper_sre_opts;

/* What an evaluation did (for tests and benchmarks). */
typedef struct proper_sre_eval_info {
    size_t reachable;    /* expression nodes reachable from the evaluated definitions */
    size_t distinct;     /* distinct sub-expressions after hash-consing */
    size_t operations;   /* PMF operations performed (convolutions, mixtures, loops, loads) */
    size_t rounded;      /* symbols (tables, traces) whose mean moved by more than PROPER_SRE_ROUNDING_RTOL
                          * of itself when their values were rounded onto the grid */
    double rounding_shift; /* the largest change of such a symbol's mean by that rounding */
    size_t rounded_binding; /* the binding index of that symbol ((size_t)-1 when none) */
} proper_sre_eval_info;

/* Width PROPER_SRE_DEFAULT_WIDTH, default tolerances. */
PROPER_API proper_sre_opts proper_sre_opts_default(void);

/* An empty model. */
PROPER_API void proper_sre_init(proper_sre *s);
/* Release everything; the model is then empty. */
PROPER_API void proper_sre_free(proper_sre *s);

/* Parse model text. `out` must be initialised (proper_sre_init, or an
 * earlier model, which is released on success); on error it is left
 * unchanged. `file` names the text in errors and gives the directory for
 * relative paths (NULL: none, working directory). Errors carry
 * file:line:col: syntax, unknown or mistyped names, duplicate names,
 * probabilities outside [0, 1] or not summing to 1, unbalanced
 * parentheses, definitions that depend on themselves. */
PROPER_API int proper_sre_parse(proper_sre *out, const char *text, size_t len, const char *file,
                                proper_error *err);
/* Read a file and parse it (the same output contract). */
PROPER_API int proper_sre_read(proper_sre *out, const char *path, proper_error *err);

/* Append the model to b as text that parses back to an equal model (the
 * binding order is kept; formatting is canonical). */
PROPER_API int proper_sre_format(const proper_sre *s, proper_strbuf *b, proper_error *err);
/* The same text, written to a stream. */
PROPER_API int proper_sre_write(const proper_sre *s, FILE *f, proper_error *err);
/* Append just one definition's expression (NULL: the main one). */
PROPER_API int proper_sre_format_def(const proper_sre *s, const char *name, proper_strbuf *b,
                                     proper_error *err);

/* 1 when the two models are structurally equal: the same bindings in the
 * same order, the same sources, numbers and expression trees (positions in
 * the text are ignored). */
PROPER_API int proper_sre_equal(const proper_sre *a, const proper_sre *b);

/* Index of a binding by name, or -1. */
PROPER_API long proper_sre_find(const proper_sre *s, const char *name);
/* Name of the definition evaluated by default (the last `def`), or NULL. */
PROPER_API const char *proper_sre_main(const proper_sre *s);

/* Apply one what-if override "target=value" (see the header comment).
 * Errors point into the assignment text (file "--set"). */
PROPER_API int proper_sre_set(proper_sre *s, const char *assignment, proper_error *err);

/* Evaluate definition `name` (NULL: the main one) to a PMF. */
PROPER_API int proper_sre_eval(proper_sre *s, const char *name, const proper_sre_opts *opt,
                               proper_pmf *out, proper_error *err);
/* Evaluate k definitions in one pass, sharing every common
 * sub-expression; outs[i] receives names[i]. `info` may be NULL. */
PROPER_API int proper_sre_eval_many(proper_sre *s, const char *const *names, size_t k,
                                    const proper_sre_opts *opt, proper_pmf *outs,
                                    proper_sre_eval_info *info, proper_error *err);

/* The measured samples of a source (µs for traces): `spec` is source text
 * as in a `symbol` statement, e.g. `service("x.trace")` or
 * `trace("x.trace", "sendContent")`, paths relative to the working
 * directory. *xs is freed with PROPER_FREE. */
PROPER_API int proper_sre_samples(const char *spec, double **xs, size_t *n, proper_error *err);

/* Build a model from a service effect automaton's edge list (see above),
 * with proper_sre_parse's output contract. */
PROPER_API int proper_sre_from_automaton(proper_sre *out, const char *text, size_t len,
                                         const char *file, proper_error *err);

#ifdef __cplusplus
}
#endif
#endif /* PROPER_SRE_H */

/* ======================================================================== */
#ifdef PROPER_IMPLEMENTATION
#ifndef PROPER_SRE_IMPLEMENTATION
#define PROPER_SRE_IMPLEMENTATION

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROPER__SRE_NONE ((size_t)-1)
/* After state elimination the automaton must stop with probability 1 within
 * this tolerance (the products and quotients of elimination add round-off
 * to the inputs' PROPER_SRE_PROB_TOL). */
#define PROPER__SRE_AUTOMATON_TOL 1e-6

/* ---- small helpers ------------------------------------------------------ */

static int proper__sre_streq(const char *a, const char *b) {
    if (!a || !b) return a == b;
    return strcmp(a, b) == 0;
}

static void proper__sre_table_free(proper_sre_table *t) {
    PROPER_FREE(t->keys);
    PROPER_FREE(t->probs);
    t->keys = t->probs = NULL;
    t->n = 0;
}

static void proper__sre_source_free(proper_sre_source *src) {
    PROPER_FREE(src->path);
    PROPER_FREE(src->item);
    PROPER_FREE(src->choice);
    while (src->n_steps > 0) PROPER_FREE(src->steps[--src->n_steps]);
    PROPER_FREE(src->steps);
    proper__sre_table_free(&src->table);
    memset(src, 0, sizeof *src);
}

static void proper__sre_node_free(proper_sre_node *n) {
    size_t i;
    PROPER_FREE(n->name);
    PROPER_FREE(n->kids);
    if (n->probs) {
        size_t np = n->kind == PROPER_SRE_ALT ? n->n_kids : 1;
        for (i = 0; i < np; i++) PROPER_FREE(n->probs[i].name);
        PROPER_FREE(n->probs);
    }
    proper__sre_table_free(&n->table);
    memset(n, 0, sizeof *n);
}

static int proper__sre_is_name_start(int ch) {
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_';
}

static int proper__sre_is_name_char(int ch) {
    return proper__sre_is_name_start(ch) || (ch >= '0' && ch <= '9');
}

/* Reserved words. The source words (csv, trace, service, client, glue) are
 * recognised only where a source is expected and stay usable as names. */
static const char *const proper__sre_keywords[] = {"symbol", "prob", "count", "def", "else"};

static int proper__sre_is_keyword(const char *s, size_t n) {
    size_t i;
    for (i = 0; i < sizeof proper__sre_keywords / sizeof proper__sre_keywords[0]; i++)
        if (strlen(proper__sre_keywords[i]) == n && memcmp(proper__sre_keywords[i], s, n) == 0) return 1;
    return 0;
}

static const char *proper__sre_binding_kind_name(int kind) {
    switch (kind) {
    case PROPER_SRE_BIND_SYMBOL: return "symbol";
    case PROPER_SRE_BIND_PROB: return "prob";
    case PROPER_SRE_BIND_COUNT: return "count";
    default: return "def";
    }
}

static const char *proper__sre_source_keyword(int kind) {
    switch (kind) {
    case PROPER_SRE_SRC_CSV: return "csv";
    case PROPER_SRE_SRC_TRACE: return "trace";
    case PROPER_SRE_SRC_SERVICE: return "service";
    case PROPER_SRE_SRC_CLIENT: return "client";
    case PROPER_SRE_SRC_GLUE: return "glue";
    case PROPER_SRE_SRC_JOINT: return "joint";
    default: return NULL;
    }
}

static void proper__sre_put_string(proper_strbuf *b, const char *s) {
    proper_strbuf_append(b, "\"", 1);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') proper_strbuf_append(b, "\\", 1);
        proper_strbuf_append(b, s, 1);
    }
    proper_strbuf_append(b, "\"", 1);
}

/* ---- model storage ------------------------------------------------------ */

PROPER_API proper_sre_opts proper_sre_opts_default(void) {
    proper_sre_opts opt;
    opt.width = PROPER_SRE_DEFAULT_WIDTH;
    opt.truncate_eps = PROPER_SRE_DEFAULT_TRUNCATE_EPS;
    opt.markov_eps = PROPER_SRE_DEFAULT_MARKOV_EPS;
    return opt;
}

PROPER_API void proper_sre_init(proper_sre *s) { memset(s, 0, sizeof *s); }

PROPER_API void proper_sre_free(proper_sre *s) {
    size_t i;
    for (i = 0; i < s->n_nodes; i++) proper__sre_node_free(&s->nodes[i]);
    for (i = 0; i < s->n_bindings; i++) {
        PROPER_FREE(s->bindings[i].name);
        proper__sre_source_free(&s->bindings[i].source);
    }
    for (i = 0; i < s->n_loaded; i++) {
        PROPER_FREE(s->loaded[i].path);
        if (s->loaded[i].is_trace) proper_trace_free(&s->loaded[i].trace);
        PROPER_FREE(s->loaded[i].text);
    }
    PROPER_FREE(s->nodes);
    PROPER_FREE(s->bindings);
    PROPER_FREE(s->loaded);
    PROPER_FREE(s->file);
    PROPER_FREE(s->dir);
    memset(s, 0, sizeof *s);
}

/* Append a node; returns its index or PROPER__SRE_NONE when out of memory. */
static size_t proper__sre_new_node(proper_sre *s, int kind, int line, int col) {
    proper_sre_node *n;
    if (proper_reserve(&s->nodes, &s->nodes_cap, s->n_nodes + 1, sizeof *s->nodes)) return PROPER__SRE_NONE;
    n = &s->nodes[s->n_nodes];
    memset(n, 0, sizeof *n);
    n->kind = kind;
    n->line = line;
    n->col = col;
    n->ref = PROPER__SRE_NONE;
    return s->n_nodes++;
}

/* Append kid (and, for an alternative, its probability, taken over). */
static int proper__sre_push_kid(proper_sre *s, size_t idx, size_t kid, const proper_sre_prob *prob) {
    proper_sre_node *n = &s->nodes[idx];
    size_t cap = n->n_kids; /* arrays grow exactly: the count is their capacity */
    size_t *kids = (size_t *)PROPER_REALLOC(n->kids, (cap + 1) * sizeof *kids);
    if (!kids) return PROPER_ENOMEM;
    n->kids = kids;
    if (prob) {
        proper_sre_prob *probs = (proper_sre_prob *)PROPER_REALLOC(n->probs, (cap + 1) * sizeof *probs);
        if (!probs) return PROPER_ENOMEM;
        n->probs = probs;
        n->probs[cap] = *prob;
    }
    n->kids[cap] = kid;
    n->n_kids = cap + 1;
    return PROPER_OK;
}

PROPER_API long proper_sre_find(const proper_sre *s, const char *name) {
    size_t i;
    for (i = 0; i < s->n_bindings; i++)
        if (strcmp(s->bindings[i].name, name) == 0) return (long)i;
    return -1;
}

static long proper__sre_find_n(const proper_sre *s, const char *name, size_t len) {
    size_t i;
    for (i = 0; i < s->n_bindings; i++)
        if (strlen(s->bindings[i].name) == len && memcmp(s->bindings[i].name, name, len) == 0) return (long)i;
    return -1;
}

PROPER_API const char *proper_sre_main(const proper_sre *s) {
    size_t i = s->n_bindings;
    while (i-- > 0)
        if (s->bindings[i].kind == PROPER_SRE_BIND_DEF) return s->bindings[i].name;
    return NULL;
}

/* The text a node's position refers to. */
static const char *proper__sre_node_file(const proper_sre *s, const proper_sre_node *nd) {
    return nd->from_set ? "--set" : s->file;
}

/* ---- lexer -------------------------------------------------------------- */

enum {
    PROPER__SRE_T_EOF = 0,
    PROPER__SRE_T_NAME,
    PROPER__SRE_T_NUMBER,
    PROPER__SRE_T_STRING,
    PROPER__SRE_T_PUNCT
};

typedef struct proper__sre_token {
    int type;
    const char *start;
    size_t len;
    int line, col;
    double number;
} proper__sre_token;

typedef struct proper__sre_parser {
    proper_sre *s;
    proper_cursor c;       /* just past tok */
    proper__sre_token tok; /* the current token */
    proper_error *err;
    int depth;             /* nesting of parentheses and loops */
    int from_cwd;          /* sources parsed now are relative to the working directory */
} proper__sre_parser;

/* A node made by the parser: nodes of an override remember it, because
 * their positions are in the override's text. */
static size_t proper__sre_pnode(proper__sre_parser *p, int kind, int line, int col) {
    size_t idx = proper__sre_new_node(p->s, kind, line, col);
    if (idx != PROPER__SRE_NONE) p->s->nodes[idx].from_set = p->from_cwd;
    return idx;
}

static int proper__sre_error_at(proper__sre_parser *p, int line, int col, int code, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

static int proper__sre_error_at(proper__sre_parser *p, int line, int col, int code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    proper_error_setv(p->err, code, p->c.file, line, col, fmt, ap);
    va_end(ap);
    return code;
}

/* Skip blanks, newlines and comments, then read one token into *t. */
static int proper__sre_lex_at(proper_cursor *c, proper__sre_token *t, proper_error *err) {
    int ch;
    for (;;) {
        while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\r' || *c->p == '\n' ||
                                 *c->p == '\f' || *c->p == '\v'))
            proper_cursor_advance(c);
        if (c->p < c->end && *c->p == '#') {
            while (c->p < c->end && *c->p != '\n') proper_cursor_advance(c);
            continue;
        }
        break;
    }
    t->line = c->line;
    t->col = c->col;
    t->start = c->p;
    t->len = 0;
    t->number = 0.0;
    if (c->p >= c->end) { t->type = PROPER__SRE_T_EOF; return PROPER_OK; }
    ch = (unsigned char)*c->p;
    if (proper__sre_is_name_start(ch)) {
        while (c->p < c->end && proper__sre_is_name_char((unsigned char)*c->p)) proper_cursor_advance(c);
        t->type = PROPER__SRE_T_NAME;
    } else if ((ch >= '0' && ch <= '9') || ch == '.' ||
               ((ch == '+' || ch == '-') && c->p + 1 < c->end &&
                ((c->p[1] >= '0' && c->p[1] <= '9') || c->p[1] == '.'))) {
        int rc = proper_parse_double(c, &t->number, err);
        if (rc) return rc;
        t->type = PROPER__SRE_T_NUMBER;
    } else if (ch == '"') {
        proper_cursor start = *c;
        proper_cursor_advance(c);
        for (;;) {
            if (c->p >= c->end || *c->p == '\n')
                return proper_cursor_error(&start, err, PROPER_EPARSE, "unterminated string");
            if (*c->p == '\0') return proper_cursor_error(c, err, PROPER_EPARSE, "NUL byte in a string");
            if (*c->p == '"') { proper_cursor_advance(c); break; }
            if (*c->p == '\\') {
                proper_cursor_advance(c);
                if (c->p >= c->end || (*c->p != '"' && *c->p != '\\'))
                    return proper_cursor_error(c, err, PROPER_EPARSE, "unknown escape in a string (only \\\" and \\\\)");
            }
            proper_cursor_advance(c);
        }
        t->type = PROPER__SRE_T_STRING;
    } else if (strchr("=;()|:*[]{},", ch) && ch != '\0') {
        proper_cursor_advance(c);
        t->type = PROPER__SRE_T_PUNCT;
    } else if (ch >= 32 && ch < 127) {
        return proper_cursor_error(c, err, PROPER_EPARSE, "unexpected character '%c'", ch);
    } else {
        return proper_cursor_error(c, err, PROPER_EPARSE, "unexpected byte 0x%02x", ch);
    }
    t->len = (size_t)(c->p - t->start);
    return PROPER_OK;
}

static int proper__sre_next(proper__sre_parser *p) { return proper__sre_lex_at(&p->c, &p->tok, p->err); }

static int proper__sre_is(const proper__sre_parser *p, char ch) {
    return p->tok.type == PROPER__SRE_T_PUNCT && p->tok.start[0] == ch;
}

static int proper__sre_is_word(const proper__sre_parser *p, const char *w) {
    return p->tok.type == PROPER__SRE_T_NAME && p->tok.len == strlen(w) && memcmp(p->tok.start, w, p->tok.len) == 0;
}

/* The current token is a name that is not a keyword. */
static int proper__sre_is_plain_name(const proper__sre_parser *p) {
    return p->tok.type == PROPER__SRE_T_NAME && !proper__sre_is_keyword(p->tok.start, p->tok.len);
}

/* 1 when the token after the current one is the punctuation ch. */
static int proper__sre_peek_is(const proper__sre_parser *p, char ch) {
    proper_cursor c = p->c;
    proper__sre_token t;
    if (proper__sre_lex_at(&c, &t, NULL)) return 0;
    return t.type == PROPER__SRE_T_PUNCT && t.start[0] == ch;
}

/* "'text'" or "end of input", for messages. */
static const char *proper__sre_describe(const proper__sre_token *t, char *buf, size_t size) {
    if (t->type == PROPER__SRE_T_EOF) return "end of input";
    if (t->len > 24) snprintf(buf, size, "'%.24s...'", t->start);
    else snprintf(buf, size, "'%.*s'", (int)t->len, t->start);
    return buf;
}

static int proper__sre_expect(proper__sre_parser *p, char ch, const char *context) {
    char found[48];
    if (proper__sre_is(p, ch)) return proper__sre_next(p);
    return proper__sre_error_at(p, p->tok.line, p->tok.col, PROPER_EPARSE, "expected '%c'%s%s, found %s", ch,
                                context[0] ? " " : "", context, proper__sre_describe(&p->tok, found, sizeof found));
}

/* Decode the current string token (without quotes and escapes). */
static int proper__sre_take_string(proper__sre_parser *p, char **out) {
    const char *q = p->tok.start + 1, *end = p->tok.start + p->tok.len - 1;
    char *d;
    size_t n = 0;
    char found[48];
    if (p->tok.type != PROPER__SRE_T_STRING)
        return proper__sre_error_at(p, p->tok.line, p->tok.col, PROPER_EPARSE, "expected a string in double quotes, found %s",
                                    proper__sre_describe(&p->tok, found, sizeof found));
    d = (char *)PROPER_MALLOC((size_t)(end - q) + 1);
    if (!d) return proper_error_set(p->err, PROPER_ENOMEM, p->c.file, p->tok.line, p->tok.col, "out of memory");
    while (q < end) {
        if (*q == '\\') q++;
        d[n++] = *q++;
    }
    d[n] = '\0';
    *out = d;
    return proper__sre_next(p);
}

static int proper__sre_oom(proper__sre_parser *p) {
    return proper_error_set(p->err, PROPER_ENOMEM, p->c.file, p->tok.line, p->tok.col, "out of memory");
}

/* ---- parser: tables, sources, probabilities ----------------------------- */

static int proper__sre_cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* A probability read from text: a number in [0, 1]. */
static int proper__sre_check_prob(proper__sre_parser *p, double v, int line, int col) {
    if (!(v >= 0.0 && v <= 1.0))
        return proper__sre_error_at(p, line, col, PROPER_EPROB, "probability %g is outside [0, 1]", v);
    return PROPER_OK;
}

/* table = "{" number ":" number { "," number ":" number } "}". With
 * `counts`, keys are iteration counts (integers 0..PROPER_SRE_MAX_ITERATIONS). */
static int proper__sre_parse_table(proper__sre_parser *p, proper_sre_table *t, int counts) {
    int line = p->tok.line, col = p->tok.col, rc;
    size_t cap_k = 0, cap_p = 0, i;
    double sum = 0.0, *sorted;
    char found[48];
    if ((rc = proper__sre_expect(p, '{', "to open a table"))) return rc;
    for (;;) {
        double key, prob;
        if (p->tok.type != PROPER__SRE_T_NUMBER)
            return proper__sre_error_at(p, p->tok.line, p->tok.col, PROPER_EPARSE, "expected a number in the table, found %s",
                                        proper__sre_describe(&p->tok, found, sizeof found));
        key = p->tok.number;
        if (counts && !(key >= 0.0 && key <= PROPER_SRE_MAX_ITERATIONS && key == floor(key)))
            return proper__sre_error_at(p, p->tok.line, p->tok.col, PROPER_ERANGE,
                                        "iteration count %g is not an integer in 0..%d", key, PROPER_SRE_MAX_ITERATIONS);
        if (!counts && key < 0.0)
            return proper__sre_error_at(p, p->tok.line, p->tok.col, PROPER_ERANGE,
                                        "duration %g is negative: a symbol's values are times (>= 0)", key);
        if ((rc = proper__sre_next(p)) || (rc = proper__sre_expect(p, ':', "between value and probability"))) return rc;
        if (p->tok.type != PROPER__SRE_T_NUMBER)
            return proper__sre_error_at(p, p->tok.line, p->tok.col, PROPER_EPARSE, "expected a probability, found %s",
                                        proper__sre_describe(&p->tok, found, sizeof found));
        prob = p->tok.number;
        if ((rc = proper__sre_check_prob(p, prob, p->tok.line, p->tok.col))) return rc;
        if (proper_reserve(&t->keys, &cap_k, t->n + 1, sizeof *t->keys) ||
            proper_reserve(&t->probs, &cap_p, t->n + 1, sizeof *t->probs))
            return proper__sre_oom(p);
        t->keys[t->n] = key;
        t->probs[t->n] = prob;
        t->n++;
        sum += prob;
        if ((rc = proper__sre_next(p))) return rc;
        if (!proper__sre_is(p, ',')) break;
        if ((rc = proper__sre_next(p))) return rc;
    }
    if ((rc = proper__sre_expect(p, '}', "to close the table"))) return rc;
    if (fabs(sum - 1.0) > PROPER_SRE_PROB_TOL)
        return proper__sre_error_at(p, line, col, PROPER_EPROB, "table probabilities sum to %.15g, not 1", sum);
    sorted = (double *)proper_calloc(t->n, sizeof *sorted);
    if (!sorted) return proper__sre_oom(p);
    memcpy(sorted, t->keys, t->n * sizeof *sorted);
    qsort(sorted, t->n, sizeof *sorted, proper__sre_cmp_double);
    for (i = 1; i < t->n; i++)
        if (sorted[i] == sorted[i - 1]) {
            double dup = sorted[i];
            PROPER_FREE(sorted);
            return proper__sre_error_at(p, line, col, PROPER_EINVAL, "%s %g appears twice in the table",
                                        counts ? "iteration count" : "value", dup);
        }
    PROPER_FREE(sorted);
    return PROPER_OK;
}

/* "(" string { "," string } ")" with exactly n strings into outs[0..n-1]. */
static int proper__sre_parse_args(proper__sre_parser *p, const char *what, char **outs, int n) {
    int i, rc;
    if ((rc = proper__sre_expect(p, '(', what))) return rc;
    for (i = 0; i < n; i++) {
        if (i > 0 && (rc = proper__sre_expect(p, ',', what))) return rc;
        if ((rc = proper__sre_take_string(p, &outs[i]))) return rc;
    }
    return proper__sre_expect(p, ')', what);
}

/* joint("path", "step", "step", ...) after the word: at least one step. */
static int proper__sre_parse_joint(proper__sre_parser *p, proper_sre_source *src) {
    size_t cap = 0;
    int rc;
    src->kind = PROPER_SRE_SRC_JOINT;
    if ((rc = proper__sre_expect(p, '(', "in joint(...)")) || (rc = proper__sre_take_string(p, &src->path))) return rc;
    do {
        char *step = NULL;
        if ((rc = proper__sre_expect(p, ',', "in joint(...)"))) return rc;
        if ((rc = proper__sre_take_string(p, &step))) { PROPER_FREE(step); return rc; }
        if (PROPER_PUSH(src->steps, src->n_steps, cap, step)) { PROPER_FREE(step); return proper__sre_oom(p); }
    } while (proper__sre_is(p, ','));
    return proper__sre_expect(p, ')', "to close joint(...)");
}

/* A source for a binding of kind `bkind`. */
static int proper__sre_parse_source(proper__sre_parser *p, proper_sre_source *src, int bkind) {
    char found[48];
    char *args[3] = {NULL, NULL, NULL};
    int rc, kind = PROPER_SRE_SRC_NONE, nargs = 1;
    src->from_cwd = p->from_cwd;
    if (proper__sre_is(p, '{') && bkind != PROPER_SRE_BIND_PROB) {
        src->kind = PROPER_SRE_SRC_TABLE;
        return proper__sre_parse_table(p, &src->table, bkind == PROPER_SRE_BIND_COUNT);
    }
    if (proper__sre_is_word(p, "trace")) {
        kind = PROPER_SRE_SRC_TRACE;
        nargs = bkind == PROPER_SRE_BIND_PROB ? 3 : 2;
    } else if (bkind == PROPER_SRE_BIND_SYMBOL) {
        if (proper__sre_is_word(p, "csv")) kind = PROPER_SRE_SRC_CSV;
        else if (proper__sre_is_word(p, "service")) kind = PROPER_SRE_SRC_SERVICE;
        else if (proper__sre_is_word(p, "client")) kind = PROPER_SRE_SRC_CLIENT;
        else if (proper__sre_is_word(p, "glue")) kind = PROPER_SRE_SRC_GLUE;
        else if (proper__sre_is_word(p, "joint")) kind = PROPER_SRE_SRC_JOINT;
    }
    if (kind == PROPER_SRE_SRC_NONE) {
        const char *expected = bkind == PROPER_SRE_BIND_SYMBOL
                                   ? "a table {value: prob, ...}, csv(...), trace(...), service(...), client(...), glue(...) or joint(...)"
                               : bkind == PROPER_SRE_BIND_COUNT ? "a table {count: prob, ...} or trace(\"file\", \"loop\")"
                                                                : "a number or trace(\"file\", \"branch\", \"choice\")";
        return proper__sre_error_at(p, p->tok.line, p->tok.col, PROPER_EPARSE, "expected %s, found %s", expected,
                                    proper__sre_describe(&p->tok, found, sizeof found));
    }
    if ((rc = proper__sre_next(p))) return rc;
    if (kind == PROPER_SRE_SRC_JOINT) return proper__sre_parse_joint(p, src);
    rc = proper__sre_parse_args(p, kind == PROPER_SRE_SRC_TRACE ? "in trace(...)" : "in the source", args, nargs);
    src->kind = kind;
    src->path = args[0];
    src->item = args[1];
    src->choice = args[2];
    return rc;
}

/* prob = number | name | "else" (else only when `allow_else`). */
static int proper__sre_parse_prob(proper__sre_parser *p, proper_sre_prob *pr, int allow_else) {
    char found[48];
    memset(pr, 0, sizeof *pr);
    pr->ref = PROPER__SRE_NONE;
    pr->line = p->tok.line;
    pr->col = p->tok.col;
    if (p->tok.type == PROPER__SRE_T_NUMBER) {
        int rc = proper__sre_check_prob(p, p->tok.number, p->tok.line, p->tok.col);
        if (rc) return rc;
        pr->kind = PROPER_SRE_P_NUMBER;
        pr->value = p->tok.number;
    } else if (allow_else && proper__sre_is_word(p, "else")) {
        pr->kind = PROPER_SRE_P_ELSE;
    } else if (proper__sre_is_plain_name(p)) {
        pr->kind = PROPER_SRE_P_NAME;
        pr->name = proper_strndup(p->tok.start, p->tok.len);
        if (!pr->name) return proper__sre_oom(p);
    } else {
        return proper__sre_error_at(p, p->tok.line, p->tok.col, PROPER_EPARSE, "expected a probability%s, found %s",
                                    allow_else ? " (a number, a prob name or 'else')" : " (a number or a prob name)",
                                    proper__sre_describe(&p->tok, found, sizeof found));
    }
    return proper__sre_next(p);
}

/* ---- parser: expressions ------------------------------------------------ */

static int proper__sre_parse_expr(proper__sre_parser *p, size_t *out);

static int proper__sre_starts_atom(const proper__sre_parser *p) {
    return proper__sre_is_plain_name(p) || proper__sre_is(p, '(');
}

/* atom = name | "(" [ expr ] ")" */
static int proper__sre_parse_atom(proper__sre_parser *p, size_t *out) {
    char found[48];
    int rc, line = p->tok.line, col = p->tok.col;
    if (proper__sre_is_plain_name(p)) {
        size_t idx = proper__sre_pnode(p, PROPER_SRE_SYMBOL, line, col);
        if (idx == PROPER__SRE_NONE) return proper__sre_oom(p);
        p->s->nodes[idx].name = proper_strndup(p->tok.start, p->tok.len);
        if (!p->s->nodes[idx].name) return proper__sre_oom(p);
        *out = idx;
        return proper__sre_next(p);
    }
    if (!proper__sre_is(p, '('))
        return proper__sre_error_at(p, line, col, PROPER_EPARSE, "expected a symbol, a definition or '(', found %s",
                                    proper__sre_describe(&p->tok, found, sizeof found));
    if (++p->depth > PROPER_SRE_MAX_NESTING)
        return proper__sre_error_at(p, line, col, PROPER_ELIMIT, "expression nested deeper than %d", PROPER_SRE_MAX_NESTING);
    if ((rc = proper__sre_next(p))) return rc;
    if (proper__sre_is(p, ')')) {
        *out = proper__sre_pnode(p, PROPER_SRE_EMPTY, line, col);
        if (*out == PROPER__SRE_NONE) return proper__sre_oom(p);
    } else if ((rc = proper__sre_parse_expr(p, out))) {
        return rc;
    }
    if (!proper__sre_is(p, ')'))
        return proper__sre_error_at(p, p->tok.line, p->tok.col, PROPER_EPARSE,
                                    "expected ')' to close the '(' at %d:%d, found %s", line, col,
                                    proper__sre_describe(&p->tok, found, sizeof found));
    p->depth--;
    return proper__sre_next(p);
}

/* postfix = atom { "*" ( table | "[" prob "]" | name ) } */
static int proper__sre_parse_postfix(proper__sre_parser *p, size_t *out) {
    char found[48];
    int rc, depth = p->depth;
    size_t body;
    if ((rc = proper__sre_parse_atom(p, &body))) return rc;
    while (proper__sre_is(p, '*')) {
        int line = p->tok.line, col = p->tok.col;
        size_t loop;
        if (++p->depth > PROPER_SRE_MAX_NESTING)
            return proper__sre_error_at(p, line, col, PROPER_ELIMIT, "expression nested deeper than %d", PROPER_SRE_MAX_NESTING);
        if ((rc = proper__sre_next(p))) return rc;
        loop = proper__sre_pnode(p, PROPER_SRE_LOOP, line, col);
        if (loop == PROPER__SRE_NONE || proper__sre_push_kid(p->s, loop, body, NULL)) return proper__sre_oom(p);
        if (proper__sre_is(p, '{')) {
            proper_sre_table t;
            memset(&t, 0, sizeof t);
            rc = proper__sre_parse_table(p, &t, 1);
            p->s->nodes[loop].table = t;
            if (rc) return rc;
        } else if (proper__sre_is(p, '[')) {
            proper_sre_prob pr;
            p->s->nodes[loop].kind = PROPER_SRE_MLOOP;
            if ((rc = proper__sre_next(p))) return rc;
            rc = proper__sre_parse_prob(p, &pr, 0);
            if (rc) { PROPER_FREE(pr.name); return rc; }
            p->s->nodes[loop].probs = (proper_sre_prob *)PROPER_MALLOC(sizeof pr);
            if (!p->s->nodes[loop].probs) { PROPER_FREE(pr.name); return proper__sre_oom(p); }
            p->s->nodes[loop].probs[0] = pr;
            if (pr.kind == PROPER_SRE_P_NUMBER && pr.value >= 1.0)
                return proper__sre_error_at(p, pr.line, pr.col, PROPER_EPROB,
                                            "re-entry probability of a Markovian loop must be below 1");
            if ((rc = proper__sre_expect(p, ']', "after the re-entry probability"))) return rc;
        } else if (proper__sre_is_plain_name(p)) {
            p->s->nodes[loop].name = proper_strndup(p->tok.start, p->tok.len);
            if (!p->s->nodes[loop].name) return proper__sre_oom(p);
            if ((rc = proper__sre_next(p))) return rc;
        } else {
            return proper__sre_error_at(p, p->tok.line, p->tok.col, PROPER_EPARSE,
                                        "expected a count table '{...}', '[p]' or a count name after '*', found %s",
                                        proper__sre_describe(&p->tok, found, sizeof found));
        }
        body = loop;
    }
    p->depth = depth;
    *out = body;
    return PROPER_OK;
}

/* Append kid to sequence seq, splicing in the parts of a nested sequence. */
static int proper__sre_seq_append(proper_sre *s, size_t seq, size_t kid) {
    size_t i;
    if (s->nodes[kid].kind != PROPER_SRE_SEQ) return proper__sre_push_kid(s, seq, kid, NULL);
    for (i = 0; i < s->nodes[kid].n_kids; i++)
        if (proper__sre_push_kid(s, seq, s->nodes[kid].kids[i], NULL)) return PROPER_ENOMEM;
    return PROPER_OK;
}

/* seq = postfix { postfix } */
static int proper__sre_parse_seq(proper__sre_parser *p, size_t *out) {
    int rc, line = p->tok.line, col = p->tok.col;
    size_t first, seq;
    if ((rc = proper__sre_parse_postfix(p, &first))) return rc;
    if (!proper__sre_starts_atom(p)) { *out = first; return PROPER_OK; }
    seq = proper__sre_pnode(p, PROPER_SRE_SEQ, line, col);
    if (seq == PROPER__SRE_NONE || proper__sre_seq_append(p->s, seq, first)) return proper__sre_oom(p);
    while (proper__sre_starts_atom(p)) {
        size_t kid;
        if ((rc = proper__sre_parse_postfix(p, &kid))) return rc;
        if (proper__sre_seq_append(p->s, seq, kid)) return proper__sre_oom(p);
    }
    *out = seq;
    return PROPER_OK;
}

/* Probabilities of an alternative that are all known without evaluation
 * (numbers, and `prob` bindings given as numbers when `s` is resolved):
 * at most one `else`, the rest summing to 1 (or to at most 1 with else).
 * Sets *checked to 0 when some value is only known at evaluation. */
static int proper__sre_alt_sum(const proper_sre *s, const proper_sre_node *n, int resolved, double *sum,
                               int *n_else, int *checked) {
    size_t i;
    *sum = 0.0;
    *n_else = 0;
    *checked = 1;
    for (i = 0; i < n->n_kids; i++) {
        const proper_sre_prob *pr = &n->probs[i];
        if (pr->kind == PROPER_SRE_P_ELSE) (*n_else)++;
        else if (pr->kind == PROPER_SRE_P_NUMBER) *sum += pr->value;
        else if (resolved && s->bindings[pr->ref].source.kind == PROPER_SRE_SRC_NONE) *sum += s->bindings[pr->ref].prob;
        else *checked = 0;
    }
    return PROPER_OK;
}

static int proper__sre_check_alt(const proper_sre *s, const proper_sre_node *n, int resolved, const char *file,
                                 proper_error *err) {
    double sum;
    int n_else, checked;
    proper__sre_alt_sum(s, n, resolved, &sum, &n_else, &checked);
    if (n_else > 1)
        return proper_error_set(err, PROPER_EPROB, file, n->line, n->col, "an alternative may have only one 'else' branch");
    if (!checked) return PROPER_OK;
    if (n_else == 1 && sum > 1.0 + PROPER_SRE_PROB_TOL)
        return proper_error_set(err, PROPER_EPROB, file, n->line, n->col,
                                "branch probabilities sum to %.15g before 'else' (more than 1)", sum);
    if (n_else == 0 && fabs(sum - 1.0) > PROPER_SRE_PROB_TOL)
        return proper_error_set(err, PROPER_EPROB, file, n->line, n->col, "branch probabilities sum to %.15g, not 1", sum);
    return PROPER_OK;
}

/* expr = branch { "|" branch };  branch = [ prob ":" ] seq */
static int proper__sre_parse_expr(proper__sre_parser *p, size_t *out) {
    int rc, line = p->tok.line, col = p->tok.col, n_branches = 0, first_has_prob = 0;
    size_t alt = proper__sre_pnode(p, PROPER_SRE_ALT, line, col), kid = PROPER__SRE_NONE;
    if (alt == PROPER__SRE_NONE) return proper__sre_oom(p);
    for (;;) {
        proper_sre_prob pr;
        int has_prob = 0, bline = p->tok.line, bcol = p->tok.col;
        memset(&pr, 0, sizeof pr);
        pr.ref = PROPER__SRE_NONE;
        if (p->tok.type == PROPER__SRE_T_NUMBER || proper__sre_is_word(p, "else") ||
            (proper__sre_is_plain_name(p) && proper__sre_peek_is(p, ':'))) {
            if ((rc = proper__sre_parse_prob(p, &pr, 1))) { PROPER_FREE(pr.name); return rc; }
            has_prob = 1;
            rc = proper__sre_expect(p, ':', "after the branch probability");
            if (rc) { PROPER_FREE(pr.name); return rc; }
        }
        if (n_branches == 0) {
            first_has_prob = has_prob;
        } else if (!has_prob || !first_has_prob) {
            PROPER_FREE(pr.name);
            return proper__sre_error_at(p, has_prob ? line : bline, has_prob ? col : bcol, PROPER_EPARSE,
                                        "every branch of an alternative needs a probability, as in 'p: ...'");
        }
        rc = proper__sre_parse_seq(p, &kid);
        if (rc == PROPER_OK && has_prob && proper__sre_push_kid(p->s, alt, kid, &pr)) rc = proper__sre_oom(p);
        if (rc) { PROPER_FREE(pr.name); return rc; }
        n_branches++;
        if (!proper__sre_is(p, '|')) break;
        if ((rc = proper__sre_next(p))) return rc;
    }
    if (!first_has_prob) { *out = kid; return PROPER_OK; } /* the ALT node stays unused */
    if ((rc = proper__sre_check_alt(p->s, &p->s->nodes[alt], 0, p->c.file, p->err))) return rc;
    *out = alt;
    return PROPER_OK;
}

/* ---- parser: statements ------------------------------------------------- */

static int proper__sre_add_binding(proper_sre *s, const char *name, size_t len, int kind, int line, int col,
                                   size_t *index) {
    proper_sre_binding *b;
    if (proper_reserve(&s->bindings, &s->bindings_cap, s->n_bindings + 1, sizeof *s->bindings)) return PROPER_ENOMEM;
    b = &s->bindings[s->n_bindings];
    memset(b, 0, sizeof *b);
    b->name = proper_strndup(name, len);
    if (!b->name) return PROPER_ENOMEM;
    b->kind = kind;
    b->line = line;
    b->col = col;
    b->root = PROPER__SRE_NONE;
    *index = s->n_bindings++;
    return PROPER_OK;
}

static int proper__sre_parse_statement(proper__sre_parser *p) {
    static const char *const words[] = {"symbol", "prob", "count", "def"};
    static const int kinds[] = {PROPER_SRE_BIND_SYMBOL, PROPER_SRE_BIND_PROB, PROPER_SRE_BIND_COUNT,
                                PROPER_SRE_BIND_DEF};
    char found[48];
    int rc, kind = -1, k;
    size_t bi;
    long existing;
    for (k = 0; k < 4; k++)
        if (proper__sre_is_word(p, words[k])) kind = kinds[k];
    if (kind < 0)
        return proper__sre_error_at(p, p->tok.line, p->tok.col, PROPER_EPARSE,
                                    "expected a statement ('symbol', 'prob', 'count' or 'def'), found %s",
                                    proper__sre_describe(&p->tok, found, sizeof found));
    if ((rc = proper__sre_next(p))) return rc;
    if (p->tok.type == PROPER__SRE_T_NAME && !proper__sre_is_plain_name(p))
        return proper__sre_error_at(p, p->tok.line, p->tok.col, PROPER_EPARSE, "'%.*s' is a keyword, not a name",
                                    (int)p->tok.len, p->tok.start);
    if (p->tok.type != PROPER__SRE_T_NAME)
        return proper__sre_error_at(p, p->tok.line, p->tok.col, PROPER_EPARSE, "expected a name after '%s', found %s",
                                    proper__sre_binding_kind_name(kind), proper__sre_describe(&p->tok, found, sizeof found));
    existing = proper__sre_find_n(p->s, p->tok.start, p->tok.len);
    if (existing >= 0)
        return proper__sre_error_at(p, p->tok.line, p->tok.col, PROPER_EINVAL, "'%.*s' is already bound at %d:%d",
                                    (int)p->tok.len, p->tok.start, p->s->bindings[existing].line,
                                    p->s->bindings[existing].col);
    if (proper__sre_add_binding(p->s, p->tok.start, p->tok.len, kind, p->tok.line, p->tok.col, &bi))
        return proper__sre_oom(p);
    if ((rc = proper__sre_next(p))) return rc;
    if (kind == PROPER_SRE_BIND_SYMBOL && proper__sre_is(p, ';')) return proper__sre_next(p);
    if ((rc = proper__sre_expect(p, '=', "after the name"))) return rc;
    if (kind == PROPER_SRE_BIND_DEF) {
        size_t root;
        p->depth = 0;
        if ((rc = proper__sre_parse_expr(p, &root))) return rc;
        p->s->bindings[bi].root = root;
    } else if (kind == PROPER_SRE_BIND_PROB && p->tok.type == PROPER__SRE_T_NUMBER) {
        if ((rc = proper__sre_check_prob(p, p->tok.number, p->tok.line, p->tok.col))) return rc;
        p->s->bindings[bi].prob = p->tok.number;
        if ((rc = proper__sre_next(p))) return rc;
    } else if ((rc = proper__sre_parse_source(p, &p->s->bindings[bi].source, kind))) {
        return rc;
    }
    if (proper__sre_is(p, ')'))
        return proper__sre_error_at(p, p->tok.line, p->tok.col, PROPER_EPARSE, "unbalanced ')': no '(' to close");
    return proper__sre_expect(p, ';', "to end the statement");
}

/* ---- name resolution and cycles ------------------------------------------ */

/* Nodes reachable from root, each once (mark[i] set), in preorder, appended
 * to list. With through_refs, REF nodes lead into their definitions. */
static int proper__sre_collect(const proper_sre *s, size_t root, int through_refs, unsigned char *mark,
                               size_t **list, size_t *n, size_t *cap) {
    size_t *stack = NULL, depth = 0, stack_cap = 0;
    if (root == PROPER__SRE_NONE || mark[root]) return PROPER_OK;
    if (PROPER_PUSH(stack, depth, stack_cap, root)) return PROPER_ENOMEM;
    mark[root] = 1;
    while (depth > 0) {
        size_t idx = stack[--depth], i;
        const proper_sre_node *nd = &s->nodes[idx];
        if (PROPER_PUSH(*list, *n, *cap, idx)) { PROPER_FREE(stack); return PROPER_ENOMEM; }
        for (i = nd->n_kids; i-- > 0;) {
            size_t kid = nd->kids[i];
            if (mark[kid]) continue;
            mark[kid] = 1;
            if (PROPER_PUSH(stack, depth, stack_cap, kid)) { PROPER_FREE(stack); return PROPER_ENOMEM; }
        }
        if (through_refs && nd->kind == PROPER_SRE_REF) {
            size_t r = s->bindings[nd->ref].root;
            if (!mark[r]) {
                mark[r] = 1;
                if (PROPER_PUSH(stack, depth, stack_cap, r)) { PROPER_FREE(stack); return PROPER_ENOMEM; }
            }
        }
    }
    PROPER_FREE(stack);
    return PROPER_OK;
}

static int proper__sre_resolve_prob(const proper_sre *s, const char *file, proper_sre_prob *pr, proper_error *err) {
    long b;
    if (pr->kind != PROPER_SRE_P_NAME) return PROPER_OK;
    b = proper_sre_find(s, pr->name);
    if (b < 0) return proper_error_set(err, PROPER_EUNDEFINED, file, pr->line, pr->col, "unknown prob '%s'", pr->name);
    if (s->bindings[b].kind != PROPER_SRE_BIND_PROB)
        return proper_error_set(err, PROPER_EINVAL, file, pr->line, pr->col, "'%s' is a %s, not a prob", pr->name,
                                proper__sre_binding_kind_name(s->bindings[b].kind));
    pr->ref = (size_t)b;
    return PROPER_OK;
}

static int proper__sre_resolve_node(proper_sre *s, proper_sre_node *nd, proper_error *err) {
    long b;
    size_t i;
    int rc;
    switch (nd->kind) {
    case PROPER_SRE_SYMBOL:
    case PROPER_SRE_REF:
        b = proper_sre_find(s, nd->name);
        if (b < 0)
            return proper_error_set(err, PROPER_EUNDEFINED, proper__sre_node_file(s, nd), nd->line, nd->col,
                                    "unknown symbol or definition '%s'", nd->name);
        if (s->bindings[b].kind == PROPER_SRE_BIND_SYMBOL) nd->kind = PROPER_SRE_SYMBOL;
        else if (s->bindings[b].kind == PROPER_SRE_BIND_DEF) nd->kind = PROPER_SRE_REF;
        else
            return proper_error_set(err, PROPER_EINVAL, proper__sre_node_file(s, nd), nd->line, nd->col,
                                    "'%s' is a %s, not a symbol or definition", nd->name,
                                    proper__sre_binding_kind_name(s->bindings[b].kind));
        nd->ref = (size_t)b;
        return PROPER_OK;
    case PROPER_SRE_LOOP:
        if (!nd->name) return PROPER_OK;
        b = proper_sre_find(s, nd->name);
        if (b < 0)
            return proper_error_set(err, PROPER_EUNDEFINED, proper__sre_node_file(s, nd), nd->line, nd->col, "unknown count '%s'", nd->name);
        if (s->bindings[b].kind != PROPER_SRE_BIND_COUNT)
            return proper_error_set(err, PROPER_EINVAL, proper__sre_node_file(s, nd), nd->line, nd->col, "'%s' is a %s, not a count", nd->name,
                                    proper__sre_binding_kind_name(s->bindings[b].kind));
        nd->ref = (size_t)b;
        return PROPER_OK;
    case PROPER_SRE_MLOOP:
        if ((rc = proper__sre_resolve_prob(s, proper__sre_node_file(s, nd), &nd->probs[0], err))) return rc;
        if (nd->probs[0].kind == PROPER_SRE_P_NAME) {
            const proper_sre_binding *pb = &s->bindings[nd->probs[0].ref];
            if (pb->source.kind == PROPER_SRE_SRC_NONE && pb->prob >= 1.0)
                return proper_error_set(err, PROPER_EPROB, proper__sre_node_file(s, nd), nd->probs[0].line, nd->probs[0].col,
                                        "re-entry probability '%s' = 1: the Markovian loop never ends", pb->name);
        }
        return PROPER_OK;
    case PROPER_SRE_ALT:
        for (i = 0; i < nd->n_kids; i++)
            if ((rc = proper__sre_resolve_prob(s, proper__sre_node_file(s, nd), &nd->probs[i], err))) return rc;
        return proper__sre_check_alt(s, nd, 1, proper__sre_node_file(s, nd), err);
    default:
        return PROPER_OK;
    }
}

/* A definition that uses itself has no finite expansion: find one by depth-
 * first search over the definitions' references and report the reference
 * that closes the cycle, with the cycle's path. */
static int proper__sre_check_cycles(const proper_sre *s, proper_error *err) {
    size_t nb = s->n_bindings, b, *start = NULL, *edges = NULL, n_edges = 0, edges_cap = 0;
    size_t *list = NULL, n_list = 0, list_cap = 0, *stack = NULL, *next = NULL, depth = 0, i;
    unsigned char *mark = NULL, *color = NULL;
    int rc = PROPER_OK;
    start = (size_t *)proper_calloc(nb + 1, sizeof *start);
    mark = (unsigned char *)proper_calloc(s->n_nodes, 1);
    color = (unsigned char *)proper_calloc(nb, 1);
    stack = (size_t *)proper_calloc(nb, sizeof *stack);
    next = (size_t *)proper_calloc(nb, sizeof *next);
    if (!start || !mark || !color || !stack || !next) { rc = PROPER_ENOMEM; goto done; }
    /* edges[start[b] .. start[b+1]) are the REF nodes in definition b */
    for (b = 0; b < nb; b++) {
        start[b] = n_edges;
        if (s->bindings[b].kind != PROPER_SRE_BIND_DEF) continue;
        n_list = 0;
        if ((rc = proper__sre_collect(s, s->bindings[b].root, 0, mark, &list, &n_list, &list_cap))) goto done;
        for (i = 0; i < n_list; i++) {
            mark[list[i]] = 0;
            if (s->nodes[list[i]].kind == PROPER_SRE_REF && PROPER_PUSH(edges, n_edges, edges_cap, list[i])) {
                rc = PROPER_ENOMEM;
                goto done;
            }
        }
    }
    start[nb] = n_edges;
    for (b = 0; b < nb && rc == PROPER_OK; b++) {
        if (s->bindings[b].kind != PROPER_SRE_BIND_DEF || color[b]) continue;
        depth = 0;
        stack[depth++] = b;
        color[b] = 1;
        next[b] = start[b];
        while (depth > 0) {
            size_t top = stack[depth - 1];
            if (next[top] == start[top + 1]) { color[top] = 2; depth--; continue; }
            {
                const proper_sre_node *ref = &s->nodes[edges[next[top]++]];
                size_t target = ref->ref;
                if (color[target] == 1) {
                    char path[PROPER_ERROR_MESSAGE_MAX / 2];
                    size_t k = depth, used = 0;
                    while (k > 0 && stack[k - 1] != target) k--;
                    path[0] = '\0';
                    for (k = k - 1; k < depth && used + 1 < sizeof path; k++)
                        used += (size_t)snprintf(path + used, sizeof path - used, "%s -> ", s->bindings[stack[k]].name);
                    if (used + 1 < sizeof path) snprintf(path + used, sizeof path - used, "%s", s->bindings[target].name);
                    rc = proper_error_set(err, PROPER_EINVAL, proper__sre_node_file(s, ref), ref->line, ref->col,
                                          "definition '%s' depends on itself (%s)", s->bindings[target].name, path);
                    break;
                }
                if (color[target] == 0) {
                    color[target] = 1;
                    next[target] = start[target];
                    stack[depth++] = target;
                }
            }
        }
    }
done:
    if (rc == PROPER_ENOMEM) proper_error_set(err, rc, s->file, 0, 0, "out of memory");
    PROPER_FREE(start); PROPER_FREE(edges); PROPER_FREE(list); PROPER_FREE(stack); PROPER_FREE(next);
    PROPER_FREE(mark); PROPER_FREE(color);
    return rc;
}

/* Bind every name used in an expression, check types, the alternatives'
 * sums with the current `prob` values, and the absence of cycles. */
static int proper__sre_resolve(proper_sre *s, proper_error *err) {
    size_t *list = NULL, n = 0, cap = 0, b, i;
    unsigned char *mark = (unsigned char *)proper_calloc(s->n_nodes, 1);
    int rc = PROPER_OK;
    if (!mark) return proper_error_set(err, PROPER_ENOMEM, s->file, 0, 0, "out of memory");
    for (b = 0; b < s->n_bindings && rc == PROPER_OK; b++)
        if (s->bindings[b].kind == PROPER_SRE_BIND_DEF)
            rc = proper__sre_collect(s, s->bindings[b].root, 0, mark, &list, &n, &cap);
    if (rc) proper_error_set(err, rc, s->file, 0, 0, "out of memory");
    for (i = 0; i < n && rc == PROPER_OK; i++) rc = proper__sre_resolve_node(s, &s->nodes[list[i]], err);
    PROPER_FREE(list);
    PROPER_FREE(mark);
    if (rc) return rc;
    return proper__sre_check_cycles(s, err);
}

static int proper__sre_set_file(proper_sre *s, const char *file) {
    const char *slash;
    if (!file) return PROPER_OK;
    s->file = proper_strdup(file);
    slash = strrchr(file, '/');
    s->dir = proper_strndup(file, slash ? (size_t)(slash - file) + 1 : 0);
    return s->file && s->dir ? PROPER_OK : PROPER_ENOMEM;
}

static void proper__sre_parser_init(proper__sre_parser *p, proper_sre *s, const char *text, size_t len,
                                    const char *file, proper_error *err) {
    proper_skip_bom(&text, &len);
    memset(p, 0, sizeof *p);
    p->s = s;
    p->err = err;
    proper_cursor_init(&p->c, text, len, file);
}

/* The output contract: *out receives the new model on success (its old
 * contents released), and is untouched on failure. */
static int proper__sre_replace(proper_sre *out, proper_sre *fresh, int rc) {
    if (rc) {
        proper_sre_free(fresh);
        return rc;
    }
    proper_sre_free(out);
    *out = *fresh;
    return PROPER_OK;
}

PROPER_API int proper_sre_parse(proper_sre *out, const char *text, size_t len, const char *file, proper_error *err) {
    proper__sre_parser p;
    proper_sre fresh, *s = &fresh;
    int rc;
    proper_sre_init(s);
    if (proper__sre_set_file(s, file)) {
        proper_sre_free(s);
        return proper_error_set(err, PROPER_ENOMEM, file, 0, 0, "out of memory");
    }
    proper__sre_parser_init(&p, s, text, len, s->file, err);
    rc = proper__sre_next(&p);
    while (rc == PROPER_OK && p.tok.type != PROPER__SRE_T_EOF) rc = proper__sre_parse_statement(&p);
    if (rc == PROPER_OK) rc = proper__sre_resolve(s, err);
    return proper__sre_replace(out, s, rc);
}

PROPER_API int proper_sre_read(proper_sre *out, const char *path, proper_error *err) {
    char *text;
    size_t len;
    int rc = proper_read_file(path, &text, &len, err);
    if (rc) return rc;
    rc = proper_sre_parse(out, text, len, path, err);
    PROPER_FREE(text);
    return rc;
}

/* ---- printer ------------------------------------------------------------- */

/* Contexts: where an expression is printed decides which parentheses it
 * needs. TOP (a definition, a branch of an alternative printed by the
 * alternative itself): anything bare. SEQ (a part of a sequence or a
 * branch): an alternative needs parentheses. BODY (a loop's body): a
 * sequence or an alternative needs them. */
enum { PROPER__SRE_CTX_TOP, PROPER__SRE_CTX_SEQ, PROPER__SRE_CTX_BODY };

static void proper__sre_put_table(proper_strbuf *b, const proper_sre_table *t) {
    size_t i;
    proper_strbuf_puts(b, "{");
    for (i = 0; i < t->n; i++) {
        if (i) proper_strbuf_puts(b, ", ");
        proper_strbuf_double(b, t->keys[i]);
        proper_strbuf_puts(b, ": ");
        proper_strbuf_double(b, t->probs[i]);
    }
    proper_strbuf_puts(b, "}");
}

static void proper__sre_put_prob(proper_strbuf *b, const proper_sre_prob *pr) {
    if (pr->kind == PROPER_SRE_P_NUMBER) proper_strbuf_double(b, pr->value);
    else if (pr->kind == PROPER_SRE_P_NAME) proper_strbuf_puts(b, pr->name);
    else proper_strbuf_puts(b, "else");
}

static void proper__sre_put_expr(const proper_sre *s, size_t idx, int ctx, proper_strbuf *b) {
    const proper_sre_node *n = &s->nodes[idx];
    size_t i;
    switch (n->kind) {
    case PROPER_SRE_EMPTY: proper_strbuf_puts(b, "()"); break;
    case PROPER_SRE_SYMBOL:
    case PROPER_SRE_REF: proper_strbuf_puts(b, n->name); break;
    case PROPER_SRE_SEQ:
        if (ctx == PROPER__SRE_CTX_BODY) proper_strbuf_puts(b, "(");
        for (i = 0; i < n->n_kids; i++) {
            if (i) proper_strbuf_puts(b, " ");
            proper__sre_put_expr(s, n->kids[i], PROPER__SRE_CTX_SEQ, b);
        }
        if (ctx == PROPER__SRE_CTX_BODY) proper_strbuf_puts(b, ")");
        break;
    case PROPER_SRE_ALT:
        if (ctx != PROPER__SRE_CTX_TOP) proper_strbuf_puts(b, "(");
        for (i = 0; i < n->n_kids; i++) {
            if (i) proper_strbuf_puts(b, " | ");
            proper__sre_put_prob(b, &n->probs[i]);
            proper_strbuf_puts(b, ": ");
            proper__sre_put_expr(s, n->kids[i], PROPER__SRE_CTX_SEQ, b);
        }
        if (ctx != PROPER__SRE_CTX_TOP) proper_strbuf_puts(b, ")");
        break;
    case PROPER_SRE_LOOP:
    case PROPER_SRE_MLOOP:
        proper__sre_put_expr(s, n->kids[0], PROPER__SRE_CTX_BODY, b);
        proper_strbuf_puts(b, "*");
        if (n->kind == PROPER_SRE_MLOOP) {
            proper_strbuf_puts(b, "[");
            proper__sre_put_prob(b, &n->probs[0]);
            proper_strbuf_puts(b, "]");
        } else if (n->name) {
            proper_strbuf_puts(b, n->name);
        } else {
            proper__sre_put_table(b, &n->table);
        }
        break;
    default: break;
    }
}

static void proper__sre_put_source(proper_strbuf *b, const proper_sre_source *src) {
    size_t i;
    if (src->kind == PROPER_SRE_SRC_TABLE) { proper__sre_put_table(b, &src->table); return; }
    proper_strbuf_puts(b, proper__sre_source_keyword(src->kind));
    proper_strbuf_puts(b, "(");
    proper__sre_put_string(b, src->path);
    if (src->item) { proper_strbuf_puts(b, ", "); proper__sre_put_string(b, src->item); }
    if (src->choice) { proper_strbuf_puts(b, ", "); proper__sre_put_string(b, src->choice); }
    for (i = 0; i < src->n_steps; i++) { proper_strbuf_puts(b, ", "); proper__sre_put_string(b, src->steps[i]); }
    proper_strbuf_puts(b, ")");
}

PROPER_API int proper_sre_format(const proper_sre *s, proper_strbuf *b, proper_error *err) {
    size_t i;
    for (i = 0; i < s->n_bindings; i++) {
        const proper_sre_binding *bd = &s->bindings[i];
        proper_strbuf_puts(b, proper__sre_binding_kind_name(bd->kind));
        proper_strbuf_puts(b, " ");
        proper_strbuf_puts(b, bd->name);
        if (bd->kind == PROPER_SRE_BIND_DEF) {
            proper_strbuf_puts(b, " = ");
            proper__sre_put_expr(s, bd->root, PROPER__SRE_CTX_TOP, b);
        } else if (bd->kind == PROPER_SRE_BIND_PROB && bd->source.kind == PROPER_SRE_SRC_NONE) {
            proper_strbuf_puts(b, " = ");
            proper_strbuf_double(b, bd->prob);
        } else if (bd->source.kind != PROPER_SRE_SRC_NONE) {
            proper_strbuf_puts(b, " = ");
            proper__sre_put_source(b, &bd->source);
        }
        proper_strbuf_puts(b, ";\n");
    }
    return b->failed ? proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory printing the model") : PROPER_OK;
}

PROPER_API int proper_sre_write(const proper_sre *s, FILE *f, proper_error *err) {
    proper_strbuf b;
    int rc;
    proper_strbuf_init(&b);
    rc = proper_sre_format(s, &b, err);
    if (rc == PROPER_OK && b.len && fwrite(b.data, 1, b.len, f) != b.len)
        rc = proper_error_set(err, PROPER_EIO, NULL, 0, 0, "write error");
    proper_strbuf_free(&b);
    return rc;
}

/* The definition called name, or the main one for NULL. */
static int proper__sre_find_def(const proper_sre *s, const char *name, size_t *index, proper_error *err) {
    long b;
    if (!name) name = proper_sre_main(s);
    if (!name) return proper_error_set(err, PROPER_EUNDEFINED, s->file, 0, 0, "the model has no 'def'");
    b = proper_sre_find(s, name);
    if (b < 0) return proper_error_set(err, PROPER_EUNDEFINED, s->file, 0, 0, "no definition named '%s'", name);
    if (s->bindings[b].kind != PROPER_SRE_BIND_DEF)
        return proper_error_set(err, PROPER_EINVAL, s->file, s->bindings[b].line, s->bindings[b].col,
                                "'%s' is a %s, not a def", name, proper__sre_binding_kind_name(s->bindings[b].kind));
    *index = (size_t)b;
    return PROPER_OK;
}

PROPER_API int proper_sre_format_def(const proper_sre *s, const char *name, proper_strbuf *b, proper_error *err) {
    size_t bi;
    int rc;
    if ((rc = proper__sre_find_def(s, name, &bi, err))) return rc;
    proper__sre_put_expr(s, s->bindings[bi].root, PROPER__SRE_CTX_TOP, b);
    return b->failed ? proper_error_set(err, PROPER_ENOMEM, NULL, 0, 0, "out of memory printing the model") : PROPER_OK;
}

/* ---- structural equality ------------------------------------------------- */

static int proper__sre_table_equal(const proper_sre_table *a, const proper_sre_table *b) {
    size_t i;
    if (a->n != b->n) return 0;
    for (i = 0; i < a->n; i++)
        if (a->keys[i] != b->keys[i] || a->probs[i] != b->probs[i]) return 0;
    return 1;
}

static int proper__sre_prob_equal(const proper_sre_prob *a, const proper_sre_prob *b) {
    if (a->kind != b->kind) return 0;
    if (a->kind == PROPER_SRE_P_NUMBER) return a->value == b->value;
    if (a->kind == PROPER_SRE_P_NAME) return proper__sre_streq(a->name, b->name);
    return 1;
}

static int proper__sre_expr_equal(const proper_sre *sa, size_t ia, const proper_sre *sb, size_t ib) {
    const proper_sre_node *a = &sa->nodes[ia], *b = &sb->nodes[ib];
    size_t i;
    if (a->kind != b->kind || a->n_kids != b->n_kids || !proper__sre_streq(a->name, b->name)) return 0;
    if (a->kind == PROPER_SRE_LOOP && !a->name && !proper__sre_table_equal(&a->table, &b->table)) return 0;
    if (a->kind == PROPER_SRE_MLOOP && !proper__sre_prob_equal(&a->probs[0], &b->probs[0])) return 0;
    for (i = 0; i < a->n_kids; i++) {
        if (a->kind == PROPER_SRE_ALT && !proper__sre_prob_equal(&a->probs[i], &b->probs[i])) return 0;
        if (!proper__sre_expr_equal(sa, a->kids[i], sb, b->kids[i])) return 0;
    }
    return 1;
}

static int proper__sre_source_equal(const proper_sre_source *a, const proper_sre_source *b) {
    size_t i;
    if (a->n_steps != b->n_steps) return 0;
    for (i = 0; i < a->n_steps; i++)
        if (strcmp(a->steps[i], b->steps[i]) != 0) return 0;
    return a->kind == b->kind && proper__sre_streq(a->path, b->path) && proper__sre_streq(a->item, b->item) &&
           proper__sre_streq(a->choice, b->choice) && proper__sre_table_equal(&a->table, &b->table);
}

PROPER_API int proper_sre_equal(const proper_sre *a, const proper_sre *b) {
    size_t i;
    if (a->n_bindings != b->n_bindings) return 0;
    for (i = 0; i < a->n_bindings; i++) {
        const proper_sre_binding *x = &a->bindings[i], *y = &b->bindings[i];
        if (x->kind != y->kind || strcmp(x->name, y->name) != 0 || !proper__sre_source_equal(&x->source, &y->source))
            return 0;
        if (x->kind == PROPER_SRE_BIND_PROB && x->source.kind == PROPER_SRE_SRC_NONE && x->prob != y->prob) return 0;
        if (x->kind == PROPER_SRE_BIND_DEF && !proper__sre_expr_equal(a, x->root, b, y->root)) return 0;
    }
    return 1;
}

/* ---- what-if overrides --------------------------------------------------- */

/* The one node of `kind` in definition bi's own expression. */
static int proper__sre_unique_node(const proper_sre *s, size_t bi, int kind1, int kind2, const char *what,
                                   size_t *found, proper_error *err) {
    size_t *list = NULL, n = 0, cap = 0, i, hits = 0;
    unsigned char *mark = (unsigned char *)proper_calloc(s->n_nodes, 1);
    int rc;
    if (!mark) return proper_error_set(err, PROPER_ENOMEM, "--set", 0, 0, "out of memory");
    rc = proper__sre_collect(s, s->bindings[bi].root, 0, mark, &list, &n, &cap);
    for (i = 0; i < n; i++)
        if (s->nodes[list[i]].kind == kind1 || s->nodes[list[i]].kind == kind2) { *found = list[i]; hits++; }
    PROPER_FREE(list);
    PROPER_FREE(mark);
    if (rc) return proper_error_set(err, rc, "--set", 0, 0, "out of memory");
    if (hits != 1)
        return proper_error_set(err, PROPER_EINVAL, "--set", 1, 1, "definition '%s' has %lu %ss, not exactly one",
                                s->bindings[bi].name, (unsigned long)hits, what);
    return PROPER_OK;
}

static int proper__sre_expect_end(proper__sre_parser *p) {
    char found[48];
    if (p->tok.type == PROPER__SRE_T_EOF) return PROPER_OK;
    return proper__sre_error_at(p, p->tok.line, p->tok.col, PROPER_EPARSE, "unexpected %s after the value",
                                proper__sre_describe(&p->tok, found, sizeof found));
}

/* NAME=value for a symbol: a source, or a bare CSV path. `value` is the
 * cursor at the value, `lexed` the status of reading its first token (a
 * path need not be a token). */
static int proper__sre_set_symbol(proper__sre_parser *p, size_t bi, proper_cursor value, int lexed) {
    proper_sre_source src;
    int rc;
    memset(&src, 0, sizeof src);
    if (lexed == PROPER_OK && (proper__sre_is(p, '{') ||
        ((proper__sre_is_word(p, "csv") || proper__sre_is_word(p, "trace") || proper__sre_is_word(p, "service") ||
          proper__sre_is_word(p, "client") || proper__sre_is_word(p, "glue") || proper__sre_is_word(p, "joint")) &&
         proper__sre_peek_is(p, '(')))) {
        rc = proper__sre_parse_source(p, &src, PROPER_SRE_BIND_SYMBOL);
        if (rc == PROPER_OK) rc = proper__sre_expect_end(p);
    } else {
        const char *q, *end = value.end;
        proper_cursor_skip_blanks(&value);
        q = value.p;
        while (end > q && (end[-1] == ' ' || end[-1] == '\t')) end--;
        if (q >= end) return proper__sre_error_at(p, value.line, value.col, PROPER_EPARSE, "expected a value after '='");
        src.kind = PROPER_SRE_SRC_CSV;
        src.from_cwd = 1;
        src.path = proper_strndup(q, (size_t)(end - q));
        rc = src.path ? PROPER_OK : proper__sre_oom(p);
    }
    if (rc) { proper__sre_source_free(&src); return rc; }
    proper__sre_source_free(&p->s->bindings[bi].source);
    p->s->bindings[bi].source = src;
    return PROPER_OK;
}

/* NAME=value for a prob or a count. */
static int proper__sre_set_number_or_source(proper__sre_parser *p, size_t bi) {
    proper_sre_binding *b = &p->s->bindings[bi];
    proper_sre_source src;
    double old_prob = b->prob;
    int rc;
    memset(&src, 0, sizeof src);
    if (b->kind == PROPER_SRE_BIND_PROB && p->tok.type == PROPER__SRE_T_NUMBER) {
        if ((rc = proper__sre_check_prob(p, p->tok.number, p->tok.line, p->tok.col))) return rc;
        src.kind = PROPER_SRE_SRC_NONE;
        b->prob = p->tok.number;
        rc = proper__sre_next(p);
    } else {
        rc = proper__sre_parse_source(p, &src, b->kind);
    }
    if (rc == PROPER_OK) rc = proper__sre_expect_end(p);
    if (rc == PROPER_OK) {
        proper_sre_source old = b->source;
        b->source = src;
        rc = proper__sre_resolve(p->s, p->err); /* alternatives that use the prob must still sum to 1 */
        if (rc == PROPER_OK) { proper__sre_source_free(&old); return PROPER_OK; }
        src = b->source;
        b->source = old;
    }
    b->prob = old_prob;
    proper__sre_source_free(&src);
    return rc;
}

/* NAME=expr for a def. */
static int proper__sre_set_def(proper__sre_parser *p, size_t bi) {
    size_t root, old = p->s->bindings[bi].root;
    int rc = proper__sre_parse_expr(p, &root);
    if (rc == PROPER_OK) rc = proper__sre_expect_end(p);
    if (rc) return rc;
    p->s->bindings[bi].root = root;
    if ((rc = proper__sre_resolve(p->s, p->err)) == PROPER_OK) return PROPER_OK;
    p->s->bindings[bi].root = old;
    proper__sre_resolve(p->s, NULL); /* the old expression resolved before */
    return rc;
}

/* NAME.loop=spec: parse "x*spec" around a placeholder body, then swap the
 * new loop's count into the definition's loop node. */
static int proper__sre_set_loop(proper__sre_parser *p, size_t bi) {
    proper_sre *s = p->s;
    size_t target, fresh, body;
    proper_sre_node tmp;
    int rc;
    if ((rc = proper__sre_unique_node(s, bi, PROPER_SRE_LOOP, PROPER_SRE_MLOOP, "loop", &target, p->err))) return rc;
    body = s->nodes[target].kids[0];
    fresh = proper__sre_new_node(s, PROPER_SRE_LOOP, s->nodes[target].line, s->nodes[target].col);
    if (fresh == PROPER__SRE_NONE) return proper__sre_oom(p);
    if (proper__sre_is(p, '{')) {
        rc = proper__sre_parse_table(p, &s->nodes[fresh].table, 1);
    } else if (proper__sre_is(p, '[')) {
        proper_sre_prob pr;
        s->nodes[fresh].kind = PROPER_SRE_MLOOP;
        if ((rc = proper__sre_next(p))) return rc;
        rc = proper__sre_parse_prob(p, &pr, 0);
        if (rc) { PROPER_FREE(pr.name); return rc; }
        s->nodes[fresh].probs = (proper_sre_prob *)PROPER_MALLOC(sizeof pr);
        if (!s->nodes[fresh].probs) { PROPER_FREE(pr.name); return proper__sre_oom(p); }
        s->nodes[fresh].probs[0] = pr;
        if (pr.kind == PROPER_SRE_P_NUMBER && pr.value >= 1.0)
            return proper__sre_error_at(p, pr.line, pr.col, PROPER_EPROB,
                                        "re-entry probability of a Markovian loop must be below 1");
        rc = proper__sre_expect(p, ']', "after the re-entry probability");
    } else if (proper__sre_is_plain_name(p)) {
        s->nodes[fresh].name = proper_strndup(p->tok.start, p->tok.len);
        rc = s->nodes[fresh].name ? proper__sre_next(p) : proper__sre_oom(p);
    } else {
        return proper__sre_error_at(p, p->tok.line, p->tok.col, PROPER_EPARSE,
                                    "expected a count table '{...}', '[p]' or a count name");
    }
    if (rc == PROPER_OK) rc = proper__sre_expect_end(p);
    if (rc == PROPER_OK) rc = proper__sre_resolve_node(s, &s->nodes[fresh], p->err);
    if (rc) return rc;
    if (proper__sre_push_kid(s, fresh, body, NULL)) return proper__sre_oom(p);
    /* the old loop's contents move to the fresh (now unused) slot */
    tmp = s->nodes[target];
    s->nodes[target] = s->nodes[fresh];
    s->nodes[fresh] = tmp;
    return PROPER_OK;
}

/* NAME.alt=p1,p2,...: new numeric branch probabilities. */
static int proper__sre_set_alt(proper__sre_parser *p, size_t bi) {
    proper_sre *s = p->s;
    size_t target, n = 0, cap = 0, i;
    double *values = NULL, sum = 0.0;
    int rc, line = p->tok.line, col = p->tok.col;
    char found[48];
    if ((rc = proper__sre_unique_node(s, bi, PROPER_SRE_ALT, PROPER_SRE_ALT, "alternative", &target, p->err)))
        return rc;
    for (;;) {
        if (p->tok.type != PROPER__SRE_T_NUMBER) {
            rc = proper__sre_error_at(p, p->tok.line, p->tok.col, PROPER_EPARSE, "expected a probability, found %s",
                                      proper__sre_describe(&p->tok, found, sizeof found));
            break;
        }
        if ((rc = proper__sre_check_prob(p, p->tok.number, p->tok.line, p->tok.col))) break;
        if (PROPER_PUSH(values, n, cap, p->tok.number)) { rc = proper__sre_oom(p); break; }
        sum += p->tok.number;
        if ((rc = proper__sre_next(p))) break;
        if (!proper__sre_is(p, ',')) { rc = proper__sre_expect_end(p); break; }
        if ((rc = proper__sre_next(p))) break;
    }
    if (rc == PROPER_OK && n != s->nodes[target].n_kids)
        rc = proper__sre_error_at(p, line, col, PROPER_EINVAL, "the alternative has %lu branches, got %lu probabilities",
                                  (unsigned long)s->nodes[target].n_kids, (unsigned long)n);
    if (rc == PROPER_OK && fabs(sum - 1.0) > PROPER_SRE_PROB_TOL)
        rc = proper__sre_error_at(p, line, col, PROPER_EPROB, "branch probabilities sum to %.15g, not 1", sum);
    if (rc == PROPER_OK)
        for (i = 0; i < n; i++) {
            proper_sre_prob *pr = &s->nodes[target].probs[i];
            PROPER_FREE(pr->name);
            pr->name = NULL;
            pr->kind = PROPER_SRE_P_NUMBER;
            pr->value = values[i];
            pr->ref = PROPER__SRE_NONE;
        }
    PROPER_FREE(values);
    return rc;
}

PROPER_API int proper_sre_set(proper_sre *s, const char *assignment, proper_error *err) {
    proper__sre_parser p;
    proper_cursor value;
    const char *name, *selector = NULL;
    size_t n = 0, k = 0;
    long bi;
    int lexed, kind;
    proper__sre_parser_init(&p, s, assignment, strlen(assignment), "--set", err);
    p.from_cwd = 1;
    proper_cursor_skip_blanks(&p.c);
    name = p.c.p;
    while (p.c.p < p.c.end && proper__sre_is_name_char((unsigned char)*p.c.p)) { n++; proper_cursor_advance(&p.c); }
    if (p.c.p < p.c.end && *p.c.p == '.') {
        proper_cursor_advance(&p.c);
        selector = p.c.p;
        while (p.c.p < p.c.end && proper__sre_is_name_char((unsigned char)*p.c.p)) { k++; proper_cursor_advance(&p.c); }
    }
    proper_cursor_skip_blanks(&p.c);
    if (n == 0 || p.c.p >= p.c.end || *p.c.p != '=')
        return proper_cursor_error(&p.c, err, PROPER_EPARSE, "expected NAME=VALUE, NAME.loop=COUNT or NAME.alt=P,P,...");
    proper_cursor_advance(&p.c);
    value = p.c;
    lexed = proper__sre_next(&p);
    bi = proper__sre_find_n(s, name, n);
    if (bi < 0)
        return proper_error_set(err, PROPER_EUNDEFINED, "--set", 1, 1, "the model has no binding named '%.*s'", (int)n, name);
    kind = s->bindings[bi].kind;
    if (selector && kind != PROPER_SRE_BIND_DEF)
        return proper_error_set(err, PROPER_EINVAL, "--set", 1, 1, "'%.*s' is a %s; .loop and .alt apply to a def", (int)n,
                                name, proper__sre_binding_kind_name(kind));
    if (lexed && kind != PROPER_SRE_BIND_SYMBOL) return lexed; /* only a symbol's value may be a bare path */
    if (selector && k == 4 && memcmp(selector, "loop", 4) == 0) return proper__sre_set_loop(&p, (size_t)bi);
    if (selector && k == 3 && memcmp(selector, "alt", 3) == 0) return proper__sre_set_alt(&p, (size_t)bi);
    if (selector)
        return proper_error_set(err, PROPER_EINVAL, "--set", 1, (int)(selector - assignment) + 1,
                                "unknown selector '.%.*s' (use .loop or .alt)", (int)k, selector);
    if (kind == PROPER_SRE_BIND_SYMBOL) return proper__sre_set_symbol(&p, (size_t)bi, value, lexed);
    if (kind == PROPER_SRE_BIND_DEF) return proper__sre_set_def(&p, (size_t)bi);
    return proper__sre_set_number_or_source(&p, (size_t)bi);
}

/* ---- data of the sources ------------------------------------------------- */

static char *proper__sre_full_path(const proper_sre *s, const proper_sre_source *src) {
    size_t nd, np;
    char *out;
    if (src->from_cwd || !s->dir || !s->dir[0] || src->path[0] == '/') return proper_strdup(src->path);
    nd = strlen(s->dir);
    np = strlen(src->path);
    out = (char *)PROPER_MALLOC(nd + np + 1);
    if (!out) return NULL;
    memcpy(out, s->dir, nd);
    memcpy(out + nd, src->path, np + 1);
    return out;
}

/* The loaded file of a source (trace or CSV text), loading it on first use.
 * Errors opening it are reported at the statement (line, col). */
static int proper__sre_loaded_file(proper_sre *s, const proper_sre_source *src, int line, int col, size_t *index,
                                   proper_error *err) {
    int is_trace = src->kind != PROPER_SRE_SRC_CSV, rc;
    char *path = proper__sre_full_path(s, src);
    proper_sre_readed *l;
    size_t i;
    if (!path) return proper_error_set(err, PROPER_ENOMEM, s->file, line, col, "out of memory");
    for (i = 0; i < s->n_loaded; i++)
        if (s->loaded[i].is_trace == is_trace && strcmp(s->loaded[i].path, path) == 0) {
            PROPER_FREE(path);
            *index = i;
            return PROPER_OK;
        }
    if (proper_reserve(&s->loaded, &s->loaded_cap, s->n_loaded + 1, sizeof *s->loaded)) {
        PROPER_FREE(path);
        return proper_error_set(err, PROPER_ENOMEM, s->file, line, col, "out of memory");
    }
    l = &s->loaded[s->n_loaded];
    memset(l, 0, sizeof *l);
    l->is_trace = is_trace;
    if (is_trace) {
        proper_trace_init(&l->trace);
        rc = proper_trace_read(&l->trace, path, err);
        if (rc) proper_trace_free(&l->trace);
    } else {
        rc = proper_read_file(path, &l->text, &l->len, err);
    }
    if (rc) {
        /* a file that cannot be opened is reported where the model names it;
         * a malformed trace keeps the trace's own file:line:col */
        if (err && err->line == 0) {
            char msg[PROPER_ERROR_MESSAGE_MAX];
            snprintf(msg, sizeof msg, "%s", err->message);
            proper_error_set(err, rc, s->file, line, col, "%s: %s", path, msg);
        }
        PROPER_FREE(path);
        return rc;
    }
    l->path = path;
    *index = s->n_loaded++;
    return PROPER_OK;
}

/* Per request, the sum of the durations of the listed steps (µs); requests
 * without any of them are left out. */
static int proper__sre_joint_samples(const proper_sre *s, const proper_trace *t, const proper_sre_source *src, int line,
                                     int col, double **xs, size_t *n, proper_error *err) {
    size_t *idx, i, j, k;
    double *out;
    idx = (size_t *)proper_calloc(src->n_steps, sizeof *idx);
    out = (double *)proper_calloc(t->nrecords ? t->nrecords : 1, sizeof *out);
    if (!idx || !out) {
        PROPER_FREE(idx);
        PROPER_FREE(out);
        return proper_error_set(err, PROPER_ENOMEM, s->file, line, col, "out of memory");
    }
    for (k = 0; k < src->n_steps; k++) {
        const proper_trace_step_stats *st = proper_trace_find_step(t, src->steps[k]);
        if (!st) {
            PROPER_FREE(idx);
            PROPER_FREE(out);
            return proper_error_set(err, PROPER_EUNDEFINED, s->file, line, col, "trace \"%s\" has no step \"%s\"",
                                    src->path, src->steps[k]);
        }
        idx[k] = (size_t)(st - t->steps);
    }
    *n = 0;
    for (i = 0; i < t->nrecords; i++) {
        const proper_trace_record *r = &t->records[i];
        double sum = 0.0;
        int seen = 0;
        for (j = 0; j < r->nevents; j++) {
            if (r->events[j].kind != PROPER_TRACE_STEP) continue;
            for (k = 0; k < src->n_steps; k++)
                if (r->events[j].name == idx[k]) { sum += r->events[j].value; seen = 1; break; }
        }
        if (seen) out[(*n)++] = sum / PROPER_SRE_NS_PER_UNIT;
    }
    PROPER_FREE(idx);
    *xs = out;
    return PROPER_OK;
}

/* Measured samples (µs) of a trace source. */
static int proper__sre_trace_samples(const proper_sre *s, const proper_trace *t, const proper_sre_source *src, int line,
                                     int col, double **xs, size_t *n, proper_error *err) {
    size_t i, j, m = 0;
    double *out;
    const proper_trace_step_stats *st = NULL;
    *xs = NULL;
    *n = 0;
    if (src->kind == PROPER_SRE_SRC_JOINT) return proper__sre_joint_samples(s, t, src, line, col, xs, n, err);
    if (src->kind == PROPER_SRE_SRC_TRACE) {
        st = proper_trace_find_step(t, src->item);
        if (!st || st->n == 0)
            return proper_error_set(err, PROPER_EUNDEFINED, s->file, line, col, "trace \"%s\" has no step \"%s\"",
                                    src->path, src->item);
        m = st->n;
    } else {
        m = t->nrecords;
    }
    out = (double *)proper_calloc(m ? m : 1, sizeof *out);
    if (!out) return proper_error_set(err, PROPER_ENOMEM, s->file, line, col, "out of memory");
    if (st) {
        for (i = 0; i < m; i++) out[i] = st->ns[i] / PROPER_SRE_NS_PER_UNIT;
        *n = m;
    } else {
        for (i = 0; i < t->nrecords; i++) {
            const proper_trace_record *r = &t->records[i];
            double v = src->kind == PROPER_SRE_SRC_CLIENT ? r->client_ns : r->service_ns;
            if (v < 0.0) continue;
            if (src->kind == PROPER_SRE_SRC_GLUE) /* time inside the service outside its measured steps */
                for (j = 0; j < r->nevents; j++)
                    if (r->events[j].kind == PROPER_TRACE_STEP) v -= r->events[j].value;
            out[(*n)++] = v / PROPER_SRE_NS_PER_UNIT;
        }
        if (*n == 0) {
            PROPER_FREE(out);
            return proper_error_set(err, PROPER_EUNDEFINED, s->file, line, col, "trace \"%s\" has no %s lines", src->path,
                                    src->kind == PROPER_SRE_SRC_CLIENT ? "client latency (C)" : "service time (T)");
        }
    }
    *xs = out;
    return PROPER_OK;
}

/* The PMF of symbol binding bi on the grid. */
/* Note in `info` (may be NULL) that symbol bi's values (xs, weights ws or
 * equal weights when NULL; infinite values skipped) lie off the grid of
 * `width` when they do, and how far its mean moved onto the grid (`x`). */
static void proper__sre_note_rounding(proper_sre_eval_info *info, size_t bi, const double *xs, const double *ws,
                                      size_t n, double width, const proper_pmf *x) {
    double sum = 0.0, wsum = 0.0, shift;
    size_t i;
    int off = 0;
    if (!info || n == 0) return;
    for (i = 0; i < n; i++) {
        double w = ws ? ws[i] : 1.0, k;
        if (!isfinite(xs[i]) || w == 0.0) continue;
        k = xs[i] / width;
        if (fabs(k - floor(k + 0.5)) > PROPER_PMF_GRID_TOL) off = 1;
        sum += w * xs[i];
        wsum += w;
    }
    if (!off || !(wsum > 0.0)) return;
    shift = fabs(proper_pmf_mean(x) - sum / wsum);
    if (!(shift > PROPER_SRE_ROUNDING_RTOL * fabs(sum / wsum))) return;
    if (info->rounded == 0 || shift > info->rounding_shift) {
        info->rounding_shift = shift;
        info->rounded_binding = bi;
    }
    info->rounded++;
}

static int proper__sre_symbol_pmf(proper_sre *s, size_t bi, double width, proper_pmf *out,
                                  proper_sre_eval_info *info, proper_error *err) {
    const proper_sre_binding *b = &s->bindings[bi];
    const proper_sre_source *src = &b->source;
    size_t li, n;
    double *xs;
    int rc;
    switch (src->kind) {
    case PROPER_SRE_SRC_NONE:
        return proper_error_set(err, PROPER_EUNDEFINED, s->file, b->line, b->col,
                                "symbol '%s' has no PMF: give it a source or bind it with --set %s=FILE.csv", b->name,
                                b->name);
    case PROPER_SRE_SRC_TABLE:
        rc = proper_pmf_from_values(out, src->table.keys, src->table.probs, src->table.n, width, err);
        if (rc == PROPER_OK)
            proper__sre_note_rounding(info, bi, src->table.keys, src->table.probs, src->table.n, width, out);
        return rc;
    case PROPER_SRE_SRC_CSV: {
        proper_pmf tmp;
        if ((rc = proper__sre_loaded_file(s, src, b->line, b->col, &li, err))) return rc;
        proper_pmf_init(&tmp);
        rc = proper_pmf_parse_csv(&tmp, s->loaded[li].text, s->loaded[li].len, s->loaded[li].path, width, err);
        if (rc == PROPER_OK && tmp.n && tmp.offset < 0.0)
            rc = proper_error_set(err, PROPER_ERANGE, s->file, b->line, b->col,
                                  "symbol '%s': %s has the negative duration %g (a symbol's values are times, >= 0)",
                                  b->name, s->loaded[li].path, tmp.offset);
        if (rc == PROPER_OK) rc = proper_pmf_copy(out, &tmp, err);
        proper_pmf_free(&tmp);
        return rc;
    }
    default:
        if ((rc = proper__sre_loaded_file(s, src, b->line, b->col, &li, err))) return rc;
        if ((rc = proper__sre_trace_samples(s, &s->loaded[li].trace, src, b->line, b->col, &xs, &n, err))) return rc;
        rc = proper_pmf_from_samples(out, xs, n, width, err);
        if (rc == PROPER_OK) proper__sre_note_rounding(info, bi, xs, NULL, n, width, out);
        PROPER_FREE(xs);
        return rc;
    }
}

/* The value of prob binding bi. */
static int proper__sre_prob_binding(proper_sre *s, size_t bi, double *value, proper_error *err) {
    const proper_sre_binding *b = &s->bindings[bi];
    const proper_trace_branch_stats *br;
    size_t li, i;
    int rc;
    if (b->source.kind == PROPER_SRE_SRC_NONE) { *value = b->prob; return PROPER_OK; }
    if ((rc = proper__sre_loaded_file(s, &b->source, b->line, b->col, &li, err))) return rc;
    br = proper_trace_find_branch(&s->loaded[li].trace, b->source.item);
    if (!br || br->total == 0)
        return proper_error_set(err, PROPER_EUNDEFINED, s->file, b->line, b->col, "trace \"%s\" has no branch \"%s\"",
                                b->source.path, b->source.item);
    for (i = 0; i < br->nchoices; i++)
        if (strcmp(br->choices[i], b->source.choice) == 0) {
            *value = (double)br->counts[i] / (double)br->total;
            return PROPER_OK;
        }
    return proper_error_set(err, PROPER_EUNDEFINED, s->file, b->line, b->col,
                            "branch \"%s\" in trace \"%s\" never took choice \"%s\"", b->source.item, b->source.path,
                            b->source.choice);
}

/* Dense iteration-count PMF of a table: out[k] = P(k iterations). */
static int proper__sre_dense_counts(const proper_sre_table *t, double **out, size_t *n) {
    size_t i, len = 0;
    for (i = 0; i < t->n; i++)
        if ((size_t)t->keys[i] + 1 > len) len = (size_t)t->keys[i] + 1;
    *out = (double *)proper_calloc(len, sizeof **out);
    if (!*out) return PROPER_ENOMEM;
    for (i = 0; i < t->n; i++) (*out)[(size_t)t->keys[i]] += t->probs[i];
    *n = len;
    return PROPER_OK;
}

/* The count PMF of loop node idx. */
static int proper__sre_loop_counts(proper_sre *s, size_t idx, double **out, size_t *n, proper_error *err) {
    const proper_sre_node *nd = &s->nodes[idx];
    const proper_sre_binding *b;
    const proper_trace_loop_stats *ls;
    size_t li, k;
    int rc;
    if (!nd->name) {
        if (proper__sre_dense_counts(&nd->table, out, n))
            return proper_error_set(err, PROPER_ENOMEM, proper__sre_node_file(s, nd), nd->line, nd->col, "out of memory");
        return PROPER_OK;
    }
    b = &s->bindings[nd->ref];
    if (b->source.kind == PROPER_SRE_SRC_TABLE) {
        if (proper__sre_dense_counts(&b->source.table, out, n))
            return proper_error_set(err, PROPER_ENOMEM, s->file, b->line, b->col, "out of memory");
        return PROPER_OK;
    }
    if ((rc = proper__sre_loaded_file(s, &b->source, b->line, b->col, &li, err))) return rc;
    ls = proper_trace_find_loop(&s->loaded[li].trace, b->source.item);
    if (!ls || ls->total == 0)
        return proper_error_set(err, PROPER_EUNDEFINED, s->file, b->line, b->col, "trace \"%s\" has no loop \"%s\"",
                                b->source.path, b->source.item);
    if (ls->len > (size_t)PROPER_SRE_MAX_ITERATIONS + 1)
        return proper_error_set(err, PROPER_ERANGE, s->file, b->line, b->col,
                                "loop \"%s\" in trace \"%s\" ran %lu times, more than %d", b->source.item, b->source.path,
                                (unsigned long)(ls->len - 1), PROPER_SRE_MAX_ITERATIONS);
    *out = (double *)proper_calloc(ls->len, sizeof **out);
    if (!*out) return proper_error_set(err, PROPER_ENOMEM, s->file, b->line, b->col, "out of memory");
    for (k = 0; k < ls->len; k++) (*out)[k] = (double)ls->counts[k] / (double)ls->total;
    *n = ls->len;
    return PROPER_OK;
}

PROPER_API int proper_sre_samples(const char *spec, double **xs, size_t *n, proper_error *err) {
    proper_sre s;
    proper_sre_source src;
    proper__sre_parser p;
    size_t li;
    int rc;
    *xs = NULL;
    *n = 0;
    proper_sre_init(&s);
    memset(&src, 0, sizeof src);
    proper__sre_parser_init(&p, &s, spec, strlen(spec), "--measured", err);
    p.from_cwd = 1;
    rc = proper__sre_next(&p);
    if (rc == PROPER_OK) rc = proper__sre_parse_source(&p, &src, PROPER_SRE_BIND_SYMBOL);
    if (rc == PROPER_OK) rc = proper__sre_expect_end(&p);
    if (rc == PROPER_OK && (src.kind == PROPER_SRE_SRC_TABLE || src.kind == PROPER_SRE_SRC_CSV))
        rc = proper_error_set(err, PROPER_EINVAL, "--measured", 1, 1, "measured samples come from a trace source");
    if (rc == PROPER_OK) rc = proper__sre_loaded_file(&s, &src, 1, 1, &li, err);
    if (rc == PROPER_OK) rc = proper__sre_trace_samples(&s, &s.loaded[li].trace, &src, 1, 1, xs, n, err);
    proper__sre_source_free(&src);
    proper_sre_free(&s);
    return rc;
}

/* ---- evaluation ---------------------------------------------------------- */

typedef struct proper__sre_eval {
    proper_sre *s;
    const proper_sre_opts *opt;
    proper_error *err;
    size_t *order, n_order; /* reachable nodes, each after all it depends on */
    size_t *canon;          /* per node: its representative after hash-consing */
    proper_pmf *pmf;        /* per node: its PMF (representatives only) */
    double **counts;        /* per LOOP node: dense count PMF */
    size_t *n_counts;
    proper_sre_eval_info info;
} proper__sre_eval;

/* Post-order over the DAG from the roots, through definitions. */
static int proper__sre_postorder(proper__sre_eval *ev, const size_t *roots, size_t k) {
    const proper_sre *s = ev->s;
    size_t *stack = NULL, *pos = NULL, depth = 0, cap = 0, order_cap = 0, r;
    unsigned char *state = (unsigned char *)proper_calloc(s->n_nodes, 1);
    int rc = PROPER_OK;
    pos = (size_t *)proper_calloc(s->n_nodes, sizeof *pos);
    if (!state || !pos) rc = PROPER_ENOMEM;
    for (r = 0; r < k && rc == PROPER_OK; r++) {
        if (state[roots[r]]) continue;
        if (PROPER_PUSH(stack, depth, cap, roots[r])) { rc = PROPER_ENOMEM; break; }
        state[roots[r]] = 1;
        while (depth > 0 && rc == PROPER_OK) {
            size_t top = stack[depth - 1], next = PROPER__SRE_NONE;
            const proper_sre_node *nd = &s->nodes[top];
            if (nd->kind == PROPER_SRE_REF) {
                if (pos[top] == 0) next = s->bindings[nd->ref].root;
            } else if (pos[top] < nd->n_kids) {
                next = nd->kids[pos[top]];
            }
            if (next == PROPER__SRE_NONE) {
                if (PROPER_PUSH(ev->order, ev->n_order, order_cap, top)) rc = PROPER_ENOMEM;
                state[top] = 2;
                depth--;
                continue;
            }
            pos[top]++;
            if (state[next]) continue; /* done (cycles were excluded when parsing) */
            state[next] = 1;
            if (PROPER_PUSH(stack, depth, cap, next)) rc = PROPER_ENOMEM;
        }
    }
    PROPER_FREE(stack);
    PROPER_FREE(pos);
    PROPER_FREE(state);
    if (rc) return proper_error_set(ev->err, rc, ev->s->file, 0, 0, "out of memory");
    return PROPER_OK;
}

/* Probabilities of alternatives and Markovian loops with their current
 * values; counts of loops as dense PMFs. */
static int proper__sre_settle_numbers(proper__sre_eval *ev) {
    proper_sre *s = ev->s;
    size_t i, j;
    int rc;
    for (i = 0; i < ev->n_order; i++) {
        size_t idx = ev->order[i];
        proper_sre_node *nd = &s->nodes[idx];
        if (nd->kind == PROPER_SRE_ALT) {
            double sum = 0.0;
            proper_sre_prob *rest = NULL;
            for (j = 0; j < nd->n_kids; j++) {
                proper_sre_prob *pr = &nd->probs[j];
                if (pr->kind == PROPER_SRE_P_NAME && (rc = proper__sre_prob_binding(s, pr->ref, &pr->value, ev->err)))
                    return rc;
                if (pr->kind == PROPER_SRE_P_ELSE) rest = pr;
                else sum += pr->value;
            }
            if (rest && sum > 1.0 + PROPER_SRE_PROB_TOL)
                return proper_error_set(ev->err, PROPER_EPROB, proper__sre_node_file(s, nd), nd->line, nd->col,
                                        "branch probabilities sum to %.15g before 'else' (more than 1)", sum);
            if (!rest && fabs(sum - 1.0) > PROPER_SRE_PROB_TOL)
                return proper_error_set(ev->err, PROPER_EPROB, proper__sre_node_file(s, nd), nd->line, nd->col,
                                        "branch probabilities sum to %.15g, not 1", sum);
            if (rest) rest->value = sum < 1.0 ? 1.0 - sum : 0.0;
        } else if (nd->kind == PROPER_SRE_MLOOP) {
            proper_sre_prob *pr = &nd->probs[0];
            if (pr->kind == PROPER_SRE_P_NAME && (rc = proper__sre_prob_binding(s, pr->ref, &pr->value, ev->err)))
                return rc;
            if (!(pr->value < 1.0))
                return proper_error_set(ev->err, PROPER_EPROB, proper__sre_node_file(s, nd), pr->line, pr->col,
                                        "re-entry probability %g: the Markovian loop never ends", pr->value);
        } else if (nd->kind == PROPER_SRE_LOOP) {
            if ((rc = proper__sre_loop_counts(s, idx, &ev->counts[idx], &ev->n_counts[idx], ev->err))) return rc;
        }
    }
    return PROPER_OK;
}

static uint64_t proper__sre_mix(uint64_t h, uint64_t v) {
    h ^= v + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2);
    return h * 0xBF58476D1CE4E5B9ULL;
}

static uint64_t proper__sre_bits(double v) {
    uint64_t u;
    if (v == 0.0) v = 0.0; /* -0 and 0 hash alike */
    memcpy(&u, &v, sizeof u);
    return u;
}

static uint64_t proper__sre_node_hash(const proper__sre_eval *ev, size_t idx) {
    const proper_sre_node *nd = &ev->s->nodes[idx];
    uint64_t h = proper__sre_mix(0, (uint64_t)nd->kind);
    size_t i;
    if (nd->kind == PROPER_SRE_SYMBOL) h = proper__sre_mix(h, nd->ref);
    for (i = 0; i < nd->n_kids; i++) {
        h = proper__sre_mix(h, ev->canon[nd->kids[i]]);
        if (nd->kind == PROPER_SRE_ALT) h = proper__sre_mix(h, proper__sre_bits(nd->probs[i].value));
    }
    if (nd->kind == PROPER_SRE_MLOOP) h = proper__sre_mix(h, proper__sre_bits(nd->probs[0].value));
    if (nd->kind == PROPER_SRE_LOOP)
        for (i = 0; i < ev->n_counts[idx]; i++) h = proper__sre_mix(h, proper__sre_bits(ev->counts[idx][i]));
    return h;
}

/* Same computation: same kind, symbol, parts (by representative) and numbers. */
static int proper__sre_same(const proper__sre_eval *ev, size_t a, size_t b) {
    const proper_sre_node *x = &ev->s->nodes[a], *y = &ev->s->nodes[b];
    size_t i;
    if (x->kind != y->kind || x->n_kids != y->n_kids) return 0;
    if (x->kind == PROPER_SRE_SYMBOL && x->ref != y->ref) return 0;
    for (i = 0; i < x->n_kids; i++) {
        if (ev->canon[x->kids[i]] != ev->canon[y->kids[i]]) return 0;
        if (x->kind == PROPER_SRE_ALT && x->probs[i].value != y->probs[i].value) return 0;
    }
    if (x->kind == PROPER_SRE_MLOOP && x->probs[0].value != y->probs[0].value) return 0;
    if (x->kind == PROPER_SRE_LOOP) {
        if (ev->n_counts[a] != ev->n_counts[b]) return 0;
        for (i = 0; i < ev->n_counts[a]; i++)
            if (ev->counts[a][i] != ev->counts[b][i]) return 0;
    }
    return 1;
}

/* Hash-consing: each node's representative is the first node in the order
 * that computes the same thing; a REF's is its definition's. */
static int proper__sre_canonicalise(proper__sre_eval *ev) {
    size_t cap = 16, i, *slots;
    while (cap < 2 * ev->n_order + 1) cap *= 2;
    slots = (size_t *)proper_calloc(cap, sizeof *slots); /* node index + 1; 0 = empty */
    if (!slots) return proper_error_set(ev->err, PROPER_ENOMEM, ev->s->file, 0, 0, "out of memory");
    for (i = 0; i < ev->n_order; i++) {
        size_t idx = ev->order[i], h;
        const proper_sre_node *nd = &ev->s->nodes[idx];
        if (nd->kind == PROPER_SRE_REF) {
            ev->canon[idx] = ev->canon[ev->s->bindings[nd->ref].root];
            continue;
        }
        h = (size_t)(proper__sre_node_hash(ev, idx) & (cap - 1));
        while (slots[h] && !proper__sre_same(ev, slots[h] - 1, idx)) h = (h + 1) & (cap - 1);
        if (!slots[h]) {
            slots[h] = idx + 1;
            ev->info.distinct++;
        }
        ev->canon[idx] = slots[h] - 1;
    }
    PROPER_FREE(slots);
    return PROPER_OK;
}

/* A sequence's PMF: the convolution of its parts' PMFs. Convolution is
 * commutative and associative, so the parts are combined two at a time,
 * always the two with the fewest bins (Huffman's order): the costly
 * transforms then run on as few long operands as possible. */
static int proper__sre_eval_seq(proper__sre_eval *ev, const proper_sre_node *nd, proper_pmf *out) {
    size_t k = nd->n_kids, i;
    proper_pmf *work = (proper_pmf *)proper_calloc(k, sizeof *work);
    int rc = PROPER_OK;
    if (!work) return proper_error_set(ev->err, PROPER_ENOMEM, proper__sre_node_file(ev->s, nd), nd->line, nd->col, "out of memory");
    for (i = 0; i < k; i++) proper_pmf_init(&work[i]);
    for (i = 0; i < k && rc == PROPER_OK; i++) rc = proper_pmf_copy(&work[i], &ev->pmf[ev->canon[nd->kids[i]]], ev->err);
    while (rc == PROPER_OK && k > 1) {
        size_t a = 0, b = 1, t;
        if (work[b].n < work[a].n) { a = 1; b = 0; }
        for (i = 2; i < k; i++) {
            if (work[i].n < work[a].n) { b = a; a = i; }
            else if (work[i].n < work[b].n) b = i;
        }
        if (b < a) { t = a; a = b; b = t; }
        rc = proper_pmf_convolve(&work[a], &work[a], &work[b], ev->err);
        if (rc) break;
        if (ev->opt->truncate_eps > 0.0) proper_pmf_truncate(&work[a], ev->opt->truncate_eps);
        ev->info.operations++;
        proper_pmf_free(&work[b]);
        work[b] = work[--k]; /* move the last part into the freed slot */
        proper_pmf_init(&work[k]);
    }
    if (rc == PROPER_OK) {
        proper_pmf_free(out);
        *out = work[0];
        proper_pmf_init(&work[0]);
    }
    for (i = 0; i < nd->n_kids; i++) proper_pmf_free(&work[i]);
    PROPER_FREE(work);
    return rc;
}

/* One node's PMF from its parts' PMFs. */
static int proper__sre_eval_node(proper__sre_eval *ev, size_t idx) {
    proper_sre *s = ev->s;
    const proper_sre_node *nd = &s->nodes[idx];
    proper_pmf *out = &ev->pmf[idx];
    double width = ev->opt->width;
    size_t i;
    int rc = PROPER_OK;
    switch (nd->kind) {
    case PROPER_SRE_EMPTY: rc = proper_pmf_point(out, 0.0, width, ev->err); break;
    case PROPER_SRE_SYMBOL: rc = proper__sre_symbol_pmf(s, nd->ref, width, out, &ev->info, ev->err); break;
    case PROPER_SRE_SEQ: rc = proper__sre_eval_seq(ev, nd, out); break;
    case PROPER_SRE_ALT: {
        const proper_pmf **parts = (const proper_pmf **)proper_calloc(nd->n_kids, sizeof *parts);
        double *weights = (double *)proper_calloc(nd->n_kids, sizeof *weights);
        if (!parts || !weights) {
            rc = proper_error_set(ev->err, PROPER_ENOMEM, proper__sre_node_file(s, nd), nd->line, nd->col, "out of memory");
        } else {
            for (i = 0; i < nd->n_kids; i++) {
                parts[i] = &ev->pmf[ev->canon[nd->kids[i]]];
                weights[i] = nd->probs[i].value;
            }
            rc = proper_pmf_mixture(out, parts, weights, nd->n_kids, ev->err);
        }
        PROPER_FREE((void *)parts);
        PROPER_FREE(weights);
        break;
    }
    case PROPER_SRE_LOOP:
        rc = proper_pmf_loop(out, &ev->pmf[ev->canon[nd->kids[0]]], ev->counts[idx], ev->n_counts[idx], ev->err);
        break;
    case PROPER_SRE_MLOOP:
        rc = proper_pmf_markov_loop(out, &ev->pmf[ev->canon[nd->kids[0]]], nd->probs[0].value, ev->opt->markov_eps,
                                    ev->err);
        break;
    default: break;
    }
    if (rc) return rc;
    if (nd->kind != PROPER_SRE_SEQ) ev->info.operations++;
    if (ev->opt->truncate_eps > 0.0) proper_pmf_truncate(out, ev->opt->truncate_eps);
    return PROPER_OK;
}

static int proper__sre_check_options(const proper_sre *s, const proper_sre_opts *opt, proper_error *err) {
    if (!(opt->width > 0.0) || isinf(opt->width))
        return proper_error_set(err, PROPER_EINVAL, s->file, 0, 0, "grid width %g must be positive and finite", opt->width);
    if (!(opt->truncate_eps >= 0.0 && opt->truncate_eps < 1.0))
        return proper_error_set(err, PROPER_EINVAL, s->file, 0, 0, "truncate_eps %g must be in [0, 1)", opt->truncate_eps);
    if (!(opt->markov_eps > 0.0 && opt->markov_eps < 1.0))
        return proper_error_set(err, PROPER_EINVAL, s->file, 0, 0, "markov_eps %g must be in (0, 1)", opt->markov_eps);
    return PROPER_OK;
}

PROPER_API int proper_sre_eval_many(proper_sre *s, const char *const *names, size_t k, const proper_sre_opts *opt,
                                    proper_pmf *outs, proper_sre_eval_info *info, proper_error *err) {
    proper__sre_eval ev;
    size_t *roots = NULL, i, nn = s->n_nodes;
    int rc;
    for (i = 0; i < k; i++) proper_pmf_init(&outs[i]);
    if ((rc = proper__sre_check_options(s, opt, err))) return rc;
    memset(&ev, 0, sizeof ev);
    ev.info.rounded_binding = (size_t)-1;
    ev.s = s;
    ev.opt = opt;
    ev.err = err;
    roots = (size_t *)proper_calloc(k ? k : 1, sizeof *roots);
    ev.canon = (size_t *)proper_calloc(nn, sizeof *ev.canon);
    ev.pmf = (proper_pmf *)proper_calloc(nn, sizeof *ev.pmf);
    ev.counts = (double **)proper_calloc(nn, sizeof *ev.counts);
    ev.n_counts = (size_t *)proper_calloc(nn, sizeof *ev.n_counts);
    if (!roots || !ev.canon || !ev.pmf || !ev.counts || !ev.n_counts) {
        rc = proper_error_set(err, PROPER_ENOMEM, s->file, 0, 0, "out of memory");
        goto done;
    }
    for (i = 0; i < nn; i++) proper_pmf_init(&ev.pmf[i]);
    for (i = 0; i < k; i++) {
        size_t bi;
        if ((rc = proper__sre_find_def(s, names ? names[i] : NULL, &bi, err))) goto done;
        roots[i] = s->bindings[bi].root;
    }
    if ((rc = proper__sre_postorder(&ev, roots, k))) goto done;
    ev.info.reachable = ev.n_order;
    if ((rc = proper__sre_settle_numbers(&ev))) goto done;
    if ((rc = proper__sre_canonicalise(&ev))) goto done;
    for (i = 0; i < ev.n_order; i++) {
        size_t idx = ev.order[i];
        if (ev.canon[idx] != idx || s->nodes[idx].kind == PROPER_SRE_REF) continue;
        if ((rc = proper__sre_eval_node(&ev, idx))) goto done;
    }
    for (i = 0; i < k && rc == PROPER_OK; i++) rc = proper_pmf_copy(&outs[i], &ev.pmf[ev.canon[roots[i]]], err);
done:
    if (ev.pmf)
        for (i = 0; i < nn; i++) proper_pmf_free(&ev.pmf[i]);
    if (ev.counts)
        for (i = 0; i < nn; i++) PROPER_FREE(ev.counts[i]);
    if (rc)
        for (i = 0; i < k; i++) proper_pmf_free(&outs[i]);
    if (info) *info = ev.info;
    PROPER_FREE(roots);
    PROPER_FREE(ev.order);
    PROPER_FREE(ev.canon);
    PROPER_FREE(ev.pmf);
    PROPER_FREE(ev.counts);
    PROPER_FREE(ev.n_counts);
    return rc;
}

PROPER_API int proper_sre_eval(proper_sre *s, const char *name, const proper_sre_opts *opt, proper_pmf *out,
                               proper_error *err) {
    return proper_sre_eval_many(s, &name, 1, opt, out, NULL, err);
}

/* ---- service effect automaton -> SRE (state elimination) ----------------- */

typedef struct proper__sre_gnfa {
    proper_sre *s;
    size_t n;          /* matrix side: the states, then the new start S and final F */
    size_t *expr;      /* n x n: node of the path i -> j, or NONE */
    double *weight;    /* n x n: its probability */
    double *size;      /* n x n: symbol occurrences of the expression as written */
    double work;       /* node operations so far (see PROPER_SRE_MAX_AUTOMATON_SIZE) */
    size_t *sym_node;  /* per binding: the shared SYMBOL node */
} proper__sre_gnfa;

/* Symbol node for a state or label name (binding and node made on first use). */
static int proper__sre_gnfa_symbol(proper__sre_gnfa *g, const char *name, size_t len, int line, int col,
                                   size_t *node) {
    proper_sre *s = g->s;
    long b = proper__sre_find_n(s, name, len);
    size_t bi, idx;
    if (b >= 0) { *node = g->sym_node[b]; return PROPER_OK; }
    if (proper__sre_add_binding(s, name, len, PROPER_SRE_BIND_SYMBOL, line, col, &bi)) return PROPER_ENOMEM;
    idx = proper__sre_new_node(s, PROPER_SRE_SYMBOL, line, col);
    if (idx == PROPER__SRE_NONE) return PROPER_ENOMEM;
    s->nodes[idx].name = proper_strndup(name, len);
    if (!s->nodes[idx].name) return PROPER_ENOMEM;
    s->nodes[idx].ref = bi;
    g->sym_node[bi] = idx;
    *node = idx;
    return PROPER_OK;
}

/* Sequence of up to three parts (NONE skipped), flattening sequences and
 * dropping empty parts. */
static int proper__sre_gnfa_seq(proper_sre *s, size_t a, size_t b, size_t c, size_t *out) {
    size_t parts[3], i, n = 0, seq;
    parts[0] = a; parts[1] = b; parts[2] = c;
    for (i = 0; i < 3; i++)
        if (parts[i] != PROPER__SRE_NONE && s->nodes[parts[i]].kind != PROPER_SRE_EMPTY) parts[n++] = parts[i];
    if (n == 0) {
        *out = proper__sre_new_node(s, PROPER_SRE_EMPTY, 0, 0);
        return *out == PROPER__SRE_NONE ? PROPER_ENOMEM : PROPER_OK;
    }
    if (n == 1) { *out = parts[0]; return PROPER_OK; }
    seq = proper__sre_new_node(s, PROPER_SRE_SEQ, 0, 0);
    if (seq == PROPER__SRE_NONE) return PROPER_ENOMEM;
    for (i = 0; i < n; i++)
        if (proper__sre_seq_append(s, seq, parts[i])) return PROPER_ENOMEM;
    *out = seq;
    return PROPER_OK;
}

/* Append the branches of e (scaled by `scale`) to alternative alt:
 * an alternative's own branches are spliced in. */
static int proper__sre_gnfa_branches(proper_sre *s, size_t alt, size_t e, double scale) {
    proper_sre_prob pr;
    size_t i;
    memset(&pr, 0, sizeof pr);
    pr.kind = PROPER_SRE_P_NUMBER;
    pr.ref = PROPER__SRE_NONE;
    if (s->nodes[e].kind != PROPER_SRE_ALT) {
        pr.value = scale;
        return proper__sre_push_kid(s, alt, e, &pr);
    }
    for (i = 0; i < s->nodes[e].n_kids; i++) {
        pr.value = s->nodes[e].probs[i].value * scale;
        if (proper__sre_push_kid(s, alt, s->nodes[e].kids[i], &pr)) return PROPER_ENOMEM;
    }
    return PROPER_OK;
}

/* Add the path i -> j with expression e and probability w, joining it with
 * an existing path into an alternative weighted by the two probabilities. */
static int proper__sre_gnfa_add(proper__sre_gnfa *g, size_t i, size_t j, size_t e, double w, double size) {
    size_t at = i * g->n + j, alt;
    double total;
    g->work += 1.0;
    if (g->expr[at] == PROPER__SRE_NONE) {
        g->expr[at] = e;
        g->weight[at] = w;
        g->size[at] = size;
        return PROPER_OK;
    }
    g->work += (double)(g->s->nodes[g->expr[at]].kind == PROPER_SRE_ALT ? g->s->nodes[g->expr[at]].n_kids : 1) +
               (double)(g->s->nodes[e].kind == PROPER_SRE_ALT ? g->s->nodes[e].n_kids : 1);
    g->size[at] += size;
    total = g->weight[at] + w;
    alt = proper__sre_new_node(g->s, PROPER_SRE_ALT, 0, 0);
    if (alt == PROPER__SRE_NONE || proper__sre_gnfa_branches(g->s, alt, g->expr[at], g->weight[at] / total) ||
        proper__sre_gnfa_branches(g->s, alt, e, w / total))
        return PROPER_ENOMEM;
    g->expr[at] = alt;
    g->weight[at] = total;
    return PROPER_OK;
}

/* Eliminate state k: every path i -> k -> j becomes R_ik (R_kk)*[w_kk] R_kj
 * with probability w_ik w_kj / (1 - w_kk). */
static int proper__sre_gnfa_eliminate(proper__sre_gnfa *g, size_t k, const unsigned char *alive) {
    size_t n = g->n, i, j, star = PROPER__SRE_NONE;
    double stay = g->expr[k * n + k] != PROPER__SRE_NONE ? g->weight[k * n + k] : 0.0;
    if (stay > 0.0) {
        proper_sre_prob pr;
        star = proper__sre_new_node(g->s, PROPER_SRE_MLOOP, 0, 0);
        if (star == PROPER__SRE_NONE || proper__sre_push_kid(g->s, star, g->expr[k * n + k], NULL)) return PROPER_ENOMEM;
        memset(&pr, 0, sizeof pr);
        pr.kind = PROPER_SRE_P_NUMBER;
        pr.value = stay;
        pr.ref = PROPER__SRE_NONE;
        g->s->nodes[star].probs = (proper_sre_prob *)PROPER_MALLOC(sizeof pr);
        if (!g->s->nodes[star].probs) return PROPER_ENOMEM;
        g->s->nodes[star].probs[0] = pr;
    }
    for (i = 0; i < n; i++) {
        if (i == k || !alive[i] || g->expr[i * n + k] == PROPER__SRE_NONE) continue;
        for (j = 0; j < n; j++) {
            size_t e;
            int rc;
            if (j == k || !alive[j] || g->expr[k * n + j] == PROPER__SRE_NONE) continue;
            if ((rc = proper__sre_gnfa_seq(g->s, g->expr[i * n + k], star, g->expr[k * n + j], &e))) return rc;
            if ((rc = proper__sre_gnfa_add(g, i, j, e, g->weight[i * n + k] * g->weight[k * n + j] / (1.0 - stay),
                                           g->size[i * n + k] + g->size[k * n + j] +
                                               (star != PROPER__SRE_NONE ? g->size[k * n + k] : 0.0))))
                return rc;
            if (g->size[i * n + j] > (double)PROPER_SRE_MAX_AUTOMATON_SIZE ||
                g->work > 16.0 * (double)PROPER_SRE_MAX_AUTOMATON_SIZE)
                return PROPER_ELIMIT;
        }
    }
    for (i = 0; i < n; i++) {
        g->expr[i * n + k] = g->expr[k * n + i] = PROPER__SRE_NONE;
        g->weight[i * n + k] = g->weight[k * n + i] = 0.0;
        g->size[i * n + k] = g->size[k * n + i] = 0.0;
    }
    return PROPER_OK;
}

/* The state to eliminate next: the one whose elimination grows the
 * expressions least (Delgado & Morais's weight: the size of the paths it
 * creates, sum over i, j of |R_ik| + |R_kk| + |R_kj|, minus the size of the
 * paths it removes), then fewest predecessors x successors (self loops not
 * counted), ties to the first. */
static size_t proper__sre_gnfa_pick(const proper__sre_gnfa *g, size_t n_states, const unsigned char *alive) {
    size_t best = PROPER__SRE_NONE, best_cost = 0, k, i;
    double best_weight = 0.0;
    for (k = 0; k < n_states; k++) {
        size_t in = 0, out = 0, cost;
        double s_in = 0.0, s_out = 0.0, s_kk, weight;
        if (!alive[k]) continue;
        for (i = 0; i < g->n; i++) {
            if (i == k) continue;
            if (g->expr[i * g->n + k] != PROPER__SRE_NONE) { in++; s_in += g->size[i * g->n + k]; }
            if (g->expr[k * g->n + i] != PROPER__SRE_NONE) { out++; s_out += g->size[k * g->n + i]; }
        }
        s_kk = g->expr[k * g->n + k] != PROPER__SRE_NONE ? g->size[k * g->n + k] : 0.0;
        weight = (double)out * s_in + (double)in * s_out + (double)in * (double)out * s_kk - s_in - s_out - s_kk;
        cost = in * out;
        if (best == PROPER__SRE_NONE || weight < best_weight || (weight == best_weight && cost < best_cost)) {
            best = k;
            best_cost = cost;
            best_weight = weight;
        }
    }
    return best;
}

/* One edge of the automaton text. */
typedef struct proper__sre_edge {
    size_t from, to;   /* state indices */
    const char *label; /* in the text */
    size_t label_len;
    double prob;
    int line;
} proper__sre_edge;

/* Read the words of one line: up to max of them, as (start, length). */
static int proper__sre_line_words(proper_cursor *c, const char **w, size_t *wl, int *wcol, int max, int *count,
                                  proper_error *err) {
    *count = 0;
    for (;;) {
        const char *start;
        proper_cursor_skip_blanks(c);
        if (c->p >= c->end || *c->p == '\n' || *c->p == '#') break;
        if (*count == max) return proper_cursor_error(c, err, PROPER_EPARSE, "too many fields on the line");
        start = c->p;
        wcol[*count] = c->col;
        while (c->p < c->end && *c->p != ' ' && *c->p != '\t' && *c->p != '\r' && *c->p != '\n' && *c->p != '#')
            proper_cursor_advance(c);
        w[*count] = start;
        wl[(*count)++] = (size_t)(c->p - start);
    }
    while (c->p < c->end && *c->p != '\n') proper_cursor_advance(c);
    if (c->p < c->end) proper_cursor_advance(c);
    return PROPER_OK;
}

/* States are numbered by first appearance; names must be SRE names. */
static int proper__sre_state_index(char ***names, size_t *n, size_t *cap, const char *w, size_t len, size_t *index) {
    size_t i;
    char *copy;
    for (i = 0; i < *n; i++)
        if (strlen((*names)[i]) == len && memcmp((*names)[i], w, len) == 0) { *index = i; return PROPER_OK; }
    copy = proper_strndup(w, len);
    if (!copy || PROPER_PUSH(*names, *n, *cap, copy)) { PROPER_FREE(copy); return PROPER_ENOMEM; }
    *index = *n - 1;
    return PROPER_OK;
}

static int proper__sre_check_word(proper_cursor *c, const char *w, size_t len, int line, int col, proper_error *err) {
    size_t i;
    int ok = len > 0 && proper__sre_is_name_start((unsigned char)w[0]) && !proper__sre_is_keyword(w, len);
    for (i = 1; i < len && ok; i++) ok = proper__sre_is_name_char((unsigned char)w[i]);
    if (!ok)
        return proper_error_set(err, PROPER_EPARSE, c->file, line, col,
                                "'%.*s' is not a usable name (letters, digits, '_', not starting with a digit, not a keyword)",
                                (int)(len > 64 ? 64 : len), w);
    return PROPER_OK;
}

/* The automaton as read: states by first appearance, edges, final states. */
typedef struct proper__sre_automaton {
    char **states;
    size_t n_states, states_cap;
    proper__sre_edge *edges;
    size_t n_edges, edges_cap;
    unsigned char *is_final; /* per state, after reading */
    size_t *finals, n_finals, finals_cap;
    size_t start;            /* PROPER__SRE_NONE until known */
    int start_line;          /* line of the 'start' directive, 0 if none */
    double *out_sum;         /* per state: probability of its edges */
} proper__sre_automaton;

static void proper__sre_automaton_free(proper__sre_automaton *a) {
    size_t i;
    for (i = 0; i < a->n_states; i++) PROPER_FREE(a->states[i]);
    PROPER_FREE(a->states);
    PROPER_FREE(a->edges);
    PROPER_FREE(a->is_final);
    PROPER_FREE(a->finals);
    PROPER_FREE(a->out_sum);
}

/* "start STATE" or "final STATE...". */
static int proper__sre_automaton_directive(proper__sre_automaton *a, proper_cursor *c, const char *const *w,
                                           const size_t *wl, const int *wcol, int nw, int line, proper_error *err) {
    int is_start = w[0][0] == 's', k, rc;
    size_t idx;
    if (nw < 2 || (is_start && nw != 2))
        return proper_error_set(err, PROPER_EPARSE, c->file, line, wcol[0], "'%s' needs %s", is_start ? "start" : "final",
                                is_start ? "one state" : "at least one state");
    if (is_start && a->start_line)
        return proper_error_set(err, PROPER_EPARSE, c->file, line, wcol[0], "a second 'start' line (first at line %d)",
                                a->start_line);
    for (k = 1; k < nw; k++) {
        if ((rc = proper__sre_check_word(c, w[k], wl[k], line, wcol[k], err))) return rc;
        if (proper__sre_state_index(&a->states, &a->n_states, &a->states_cap, w[k], wl[k], &idx)) return PROPER_ENOMEM;
        if (is_start) {
            a->start = idx;
            a->start_line = line;
        } else if (PROPER_PUSH(a->finals, a->n_finals, a->finals_cap, idx)) {
            return PROPER_ENOMEM;
        }
    }
    return PROPER_OK;
}

/* "FROM LABEL TO PROBABILITY". */
static int proper__sre_automaton_edge(proper__sre_automaton *a, proper_cursor *c, const char *const *w, const size_t *wl,
                                      const int *wcol, int line, proper_error *err) {
    proper__sre_edge e;
    proper_cursor pc;
    proper_error perr;
    int k, rc;
    for (k = 0; k < 3; k++)
        if ((rc = proper__sre_check_word(c, w[k], wl[k], line, wcol[k], err))) return rc;
    memset(&e, 0, sizeof e);
    e.line = line;
    e.label = w[1];
    e.label_len = wl[1];
    proper_cursor_init(&pc, w[3], wl[3], c->file);
    if (proper_parse_double(&pc, &e.prob, &perr) || pc.p != pc.end || !(e.prob >= 0.0 && e.prob <= 1.0))
        return proper_error_set(err, PROPER_EPROB, c->file, line, wcol[3], "'%.*s' is not a probability in [0, 1]",
                                (int)wl[3], w[3]);
    if (proper__sre_state_index(&a->states, &a->n_states, &a->states_cap, w[0], wl[0], &e.from) ||
        proper__sre_state_index(&a->states, &a->n_states, &a->states_cap, w[2], wl[2], &e.to))
        return PROPER_ENOMEM;
    if (a->start == PROPER__SRE_NONE && a->n_edges == 0) a->start = e.from;
    return PROPER_PUSH(a->edges, a->n_edges, a->edges_cap, e);
}

/* Read the text, then check it: a start, final states, outgoing
 * probabilities summing to 1 (to at most 1 for a final state). */
static int proper__sre_automaton_read(proper__sre_automaton *a, proper_cursor *c, proper_error *err) {
    size_t i;
    int rc;
    while (c->p < c->end) {
        const char *w[5];
        size_t wl[5];
        int wcol[5], nw, line = c->line;
        if ((rc = proper__sre_line_words(c, w, wl, wcol, 5, &nw, err))) return rc;
        if (nw == 0) continue;
        if (wl[0] == 5 && (memcmp(w[0], "start", 5) == 0 || memcmp(w[0], "final", 5) == 0))
            rc = proper__sre_automaton_directive(a, c, w, wl, wcol, nw, line, err);
        else if (nw == 4)
            rc = proper__sre_automaton_edge(a, c, w, wl, wcol, line, err);
        else
            rc = proper_error_set(err, PROPER_EPARSE, c->file, line, wcol[0],
                                  "expected 'FROM LABEL TO PROBABILITY', 'start STATE' or 'final STATE...'");
        if (rc) return rc;
    }
    if (a->n_finals == 0) return proper_error_set(err, PROPER_EPARSE, c->file, 0, 0, "the automaton has no 'final' line");
    if (a->start == PROPER__SRE_NONE)
        return proper_error_set(err, PROPER_EPARSE, c->file, 0, 0, "the automaton has no edges and no 'start' line");
    a->is_final = (unsigned char *)proper_calloc(a->n_states, 1);
    a->out_sum = (double *)proper_calloc(a->n_states, sizeof *a->out_sum);
    if (!a->is_final || !a->out_sum) return PROPER_ENOMEM;
    for (i = 0; i < a->n_finals; i++) a->is_final[a->finals[i]] = 1;
    for (i = 0; i < a->n_edges; i++) a->out_sum[a->edges[i].from] += a->edges[i].prob;
    for (i = 0; i < a->n_states; i++) {
        if (!a->is_final[i] && fabs(a->out_sum[i] - 1.0) > PROPER_SRE_PROB_TOL)
            return proper_error_set(err, PROPER_EPROB, c->file, 0, 0,
                                    "the edges leaving state '%s' have probabilities summing to %.17g, not 1",
                                    a->states[i], a->out_sum[i]);
        if (a->is_final[i] && a->out_sum[i] > 1.0 + PROPER_SRE_PROB_TOL)
            return proper_error_set(err, PROPER_EPROB, c->file, 0, 0,
                                    "the edges leaving final state '%s' have probabilities summing to %.17g, more than 1",
                                    a->states[i], a->out_sum[i]);
    }
    return PROPER_OK;
}

/* The GNFA: states 0..n-1, then S (start) and F (final). S -> start takes no
 * time; an edge contributes `from label`; stopping in final state f
 * contributes `f`, with the probability left after f's edges. */
static int proper__sre_gnfa_init(proper__sre_gnfa *g, const proper__sre_automaton *a) {
    size_t n = a->n_states, i, empty, node, S = n, F = n + 1;
    int rc;
    g->n = n + 2;
    g->expr = (size_t *)proper_calloc(g->n * g->n, sizeof *g->expr);
    g->weight = (double *)proper_calloc(g->n * g->n, sizeof *g->weight);
    g->size = (double *)proper_calloc(g->n * g->n, sizeof *g->size);
    g->sym_node = (size_t *)proper_calloc(n + a->n_edges + 1, sizeof *g->sym_node); /* one per state and label */
    if (!g->expr || !g->weight || !g->size || !g->sym_node) return PROPER_ENOMEM;
    for (i = 0; i < g->n * g->n; i++) g->expr[i] = PROPER__SRE_NONE;
    empty = proper__sre_new_node(g->s, PROPER_SRE_EMPTY, 0, 0);
    if (empty == PROPER__SRE_NONE) return PROPER_ENOMEM;
    if ((rc = proper__sre_gnfa_add(g, S, a->start, empty, 1.0, 0.0))) return rc;
    for (i = 0; i < a->n_edges; i++) {
        const proper__sre_edge *e = &a->edges[i];
        size_t from_sym, label_sym, seq;
        if (e->prob == 0.0) continue;
        if ((rc = proper__sre_gnfa_symbol(g, a->states[e->from], strlen(a->states[e->from]), e->line, 1, &from_sym)) ||
            (rc = proper__sre_gnfa_symbol(g, e->label, e->label_len, e->line, 1, &label_sym)) ||
            (rc = proper__sre_gnfa_seq(g->s, from_sym, label_sym, PROPER__SRE_NONE, &seq)) ||
            (rc = proper__sre_gnfa_add(g, e->from, e->to, seq, e->prob, 2.0)))
            return rc;
    }
    for (i = 0; i < n; i++) {
        double stop = 1.0 - a->out_sum[i];
        if (!a->is_final[i] || stop <= PROPER_SRE_PROB_TOL) continue;
        if ((rc = proper__sre_gnfa_symbol(g, a->states[i], strlen(a->states[i]), 0, 0, &node)) ||
            (rc = proper__sre_gnfa_add(g, i, F, node, stop, 1.0)))
            return rc;
    }
    return PROPER_OK;
}

/* Eliminate every state; the path S -> F is the SRE. */
static int proper__sre_gnfa_solve(proper__sre_gnfa *g, const proper__sre_automaton *a, size_t *result, proper_error *err) {
    size_t n = a->n_states, S = n, F = n + 1, k, i;
    unsigned char *alive = (unsigned char *)proper_calloc(g->n, 1);
    int rc = PROPER_OK;
    if (!alive) return PROPER_ENOMEM;
    for (i = 0; i < g->n; i++) alive[i] = 1;
    while (rc == PROPER_OK && (k = proper__sre_gnfa_pick(g, n, alive)) != PROPER__SRE_NONE) {
        if (g->expr[k * g->n + k] != PROPER__SRE_NONE && g->weight[k * g->n + k] >= 1.0 - PROPER__SRE_AUTOMATON_TOL)
            rc = proper_error_set(err, PROPER_EPROB, g->s->file, 0, 0,
                                  "state '%s' is never left (it loops with probability 1)", a->states[k]);
        else if ((rc = proper__sre_gnfa_eliminate(g, k, alive)) == PROPER_ELIMIT)
            rc = proper_error_set(err, PROPER_ELIMIT, g->s->file, 0, 0,
                                  "the automaton's SRE would be larger than %.0f symbol occurrences "
                                  "(PROPER_SRE_MAX_AUTOMATON_SIZE; eliminating state '%s' of %lu): state "
                                  "elimination grows exponentially with how interconnected the states are",
                                  (double)PROPER_SRE_MAX_AUTOMATON_SIZE, a->states[k], (unsigned long)n);
        alive[k] = 0;
    }
    PROPER_FREE(alive);
    if (rc) return rc;
    if (g->expr[S * g->n + F] == PROPER__SRE_NONE || g->weight[S * g->n + F] < 1.0 - PROPER__SRE_AUTOMATON_TOL)
        return proper_error_set(err, PROPER_EPROB, g->s->file, 0, 0,
                                "the automaton reaches a final state with probability %.17g, not 1 (a state cannot stop)",
                                g->expr[S * g->n + F] == PROPER__SRE_NONE ? 0.0 : g->weight[S * g->n + F]);
    *result = g->expr[S * g->n + F];
    return PROPER_OK;
}

PROPER_API int proper_sre_from_automaton(proper_sre *out, const char *text, size_t len, const char *file,
                                         proper_error *err) {
    proper_cursor c;
    proper__sre_gnfa g;
    proper__sre_automaton a;
    proper_sre fresh, *s = &fresh;
    size_t root = PROPER__SRE_NONE, def, i;
    int rc;
    char def_name[32];
    proper_sre_init(s);
    memset(&g, 0, sizeof g);
    memset(&a, 0, sizeof a);
    a.start = PROPER__SRE_NONE;
    g.s = s;
    rc = proper__sre_set_file(s, file);
    proper_skip_bom(&text, &len);
    proper_cursor_init(&c, text, len, s->file);
    if (rc == PROPER_OK) rc = proper__sre_automaton_read(&a, &c, err);
    if (rc == PROPER_OK) rc = proper__sre_gnfa_init(&g, &a);
    if (rc == PROPER_OK) rc = proper__sre_gnfa_solve(&g, &a, &root, err);
    if (rc == PROPER_OK) {
        /* the result is `def service`, renamed if a state or label is called so */
        snprintf(def_name, sizeof def_name, "service");
        for (i = 1; proper_sre_find(s, def_name) >= 0; i++)
            snprintf(def_name, sizeof def_name, "service_%lu", (unsigned long)i);
        rc = proper__sre_add_binding(s, def_name, strlen(def_name), PROPER_SRE_BIND_DEF, 0, 0, &def);
        if (rc == PROPER_OK) {
            s->bindings[def].root = root;
            rc = proper__sre_resolve(s, err);
        }
    }
    if (rc == PROPER_ENOMEM) proper_error_set(err, rc, file, 0, 0, "out of memory");
    proper__sre_automaton_free(&a);
    PROPER_FREE(g.expr);
    PROPER_FREE(g.weight);
    PROPER_FREE(g.size);
    PROPER_FREE(g.sym_node);
    return proper__sre_replace(out, s, rc);
}

#endif /* PROPER_SRE_IMPLEMENTATION */
#endif /* PROPER_IMPLEMENTATION */
