/* Fuzz target for the SRE parser, printer, overrides, evaluator and the
 * automaton reader. Any input either parses or fails with an error inside
 * the input; whatever parses must print to text that parses back to an equal
 * model and prints the same (round trip). Models whose symbols are all
 * inline tables and whose loops are small are also evaluated (no files are
 * read: paths in fuzzed input are never opened), and an override built from
 * the input is applied. The same bytes are read as a service effect
 * automaton too. Without PROPER_LIBFUZZER, main replays every file of
 * directory argv[1]. */
#define PROPER_IMPLEMENTATION
/* Every PMF a fuzzed model builds stays below 2^16 bins (PROPER_ELIMIT
 * beyond): nested loops such as (x x)*{5: 1}*[0.72] over a loop of a loop
 * otherwise built ~10^5 bins and took seconds a unit under load. */
#define PROPER_PMF_MAX_BINS ((size_t)1 << 16)
#include "../../src/sre.h"

#include <stdlib.h>
#include <string.h>

/* Evaluation bounds for fuzzed models: keep each input fast. */
#define FUZZ_MAX_COUNT 50
#define FUZZ_MAX_REENTER 0.9
#define FUZZ_MAX_VALUE 1000.0

static void check_error(const proper_error *err, const uint8_t *data, size_t size) {
    size_t lines = 1, i;
    for (i = 0; i < size; i++) lines += data[i] == '\n';
    if (err->code == PROPER_ENOMEM) return;
    if (err->line < 1 || (size_t)err->line > lines || err->col < 1 || err->message[0] == '\0') abort();
}

static void round_trip(const proper_sre *s) {
    proper_sre t;
    proper_error err;
    proper_strbuf a, b;
    proper_strbuf_init(&a);
    proper_strbuf_init(&b);
    /* an empty model prints as nothing: the builder may then hold no buffer */
    if (proper_sre_format(s, &a, &err)) abort();
    proper_sre_init(&t);
    if (proper_sre_parse(&t, a.data ? a.data : "", a.len, "printed", &err)) abort();
    if (!proper_sre_equal(s, &t)) abort();
    if (proper_sre_format(&t, &b, &err) || strcmp(a.data ? a.data : "", b.data ? b.data : "") != 0) abort();
    proper_sre_free(&t);
    proper_strbuf_free(&a);
    proper_strbuf_free(&b);
}

/* 1 when evaluating s reads no file and stays small. */
static int cheap_to_evaluate(const proper_sre *s) {
    size_t i, j;
    for (i = 0; i < s->n_bindings; i++) {
        const proper_sre_binding *b = &s->bindings[i];
        if (b->kind == PROPER_SRE_BIND_DEF) continue;
        if (b->kind == PROPER_SRE_BIND_PROB) {
            if (b->source.kind != PROPER_SRE_SRC_NONE || b->prob > FUZZ_MAX_REENTER) return 0;
            continue;
        }
        if (b->source.kind != PROPER_SRE_SRC_TABLE) return 0;
        for (j = 0; j < b->source.table.n; j++)
            if (fabs(b->source.table.keys[j]) > (b->kind == PROPER_SRE_BIND_COUNT ? FUZZ_MAX_COUNT : FUZZ_MAX_VALUE))
                return 0;
    }
    for (i = 0; i < s->n_nodes; i++) {
        const proper_sre_node *n = &s->nodes[i];
        if (n->kind == PROPER_SRE_MLOOP && n->probs && n->probs[0].kind == PROPER_SRE_P_NUMBER &&
            n->probs[0].value > FUZZ_MAX_REENTER)
            return 0;
        if (n->kind == PROPER_SRE_LOOP)
            for (j = 0; j < n->table.n; j++)
                if (n->table.keys[j] > FUZZ_MAX_COUNT) return 0;
    }
    return s->n_nodes < 200;
}

static void evaluate(proper_sre *s) {
    proper_sre_opts opt = proper_sre_opts_default();
    proper_error err;
    proper_pmf x;
    opt.width = 1.0;
    if (proper_sre_eval(s, NULL, &opt, &x, &err) == PROPER_OK) {
        if (proper_pmf_validate(&x, &err)) abort();
        proper_pmf_free(&x);
    }
}

/* Override the main definition with the model's first line, and the first
 * binding with its last line: either applies or leaves the model printable. */
static void try_overrides(proper_sre *s, const uint8_t *data, size_t size) {
    char line[256];
    size_t n = 0, i;
    proper_error err;
    const char *main_def = proper_sre_main(s);
    if (!main_def || s->n_bindings == 0) return;
    n = (size_t)snprintf(line, sizeof line, "%s=", main_def);
    if (n >= sizeof line) return;
    for (i = 0; i < size && data[i] != '\n' && data[i] != '\0' && n + 1 < sizeof line; i++) line[n++] = (char)data[i];
    line[n] = '\0';
    if (proper_sre_set(s, line, &err)) check_error(&err, (const uint8_t *)line, n);
    round_trip(s);
    n = (size_t)snprintf(line, sizeof line, "%s.loop=", s->bindings[0].name);
    if (n >= sizeof line) return;
    i = size;
    while (i > 0 && data[i - 1] != '\n') i--;
    for (; i < size && data[i] != '\0' && n + 1 < sizeof line; i++) line[n++] = (char)data[i];
    line[n] = '\0';
    if (proper_sre_set(s, line, &err) && err.code != PROPER_EINVAL) check_error(&err, (const uint8_t *)line, n);
    round_trip(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    proper_sre s;
    proper_error err;
    proper_sre_init(&s);
    if (proper_sre_parse(&s, (const char *)data, size, "fuzz", &err) == PROPER_OK) {
        round_trip(&s);
        if (cheap_to_evaluate(&s)) evaluate(&s);
        try_overrides(&s, data, size);
        if (cheap_to_evaluate(&s)) evaluate(&s);
    } else {
        check_error(&err, data, size);
    }
    proper_sre_free(&s);
    proper_sre_init(&s);
    if (proper_sre_from_automaton(&s, (const char *)data, size, "fuzz", &err) == PROPER_OK) {
        round_trip(&s);
    } else if (err.line != 0) {
        check_error(&err, data, size);
    }
    proper_sre_free(&s);
    return 0;
}

#define PROPER_FUZZ_NAME "fuzz_sre"
#include "replay.h"
