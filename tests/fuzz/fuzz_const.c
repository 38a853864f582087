/* Fuzz target for constants given as text (proper check --const): the
 * input is read as one value (proper_prism_eval_constant) and as a whole
 * specification "N=3,p=1/3,b=true" (proper_prism_set_consts_lenient) for a
 * model with an int, a double and a bool parameter. Any input either fails
 * with a negative code and a message, or gives a value (a bool 0 or 1, an
 * int integral) and a model that then builds or fails cleanly. Without
 * PROPER_LIBFUZZER, main replays directory argv[1]. */
#define PROPER_IMPLEMENTATION
#include "../../src/prism.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *fuzz_model =
    "dtmc\nconst int N;\nconst double p;\nconst bool b;\n"
    "module m\n x : [0..3] init 0;\n [] x<3 & b -> p:(x'=min(x+1,3)) + 1-p:(x'=x);\n [] x=3 | !b -> true;\nendmodule\n";

static void check_error(const proper_error *err) {
    if (err->code == PROPER_ENOMEM) return;
    if (err->code >= 0 || err->message[0] == '\0') abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *text = (char *)malloc(size + 1), unknown[64];
    proper_prism_model *m = NULL;
    proper_error err;
    double v = 0;
    size_t i;
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    if (proper_prism_eval_constant(text, &v, &err)) check_error(&err);
    if (proper_prism_parse(&m, fuzz_model, strlen(fuzz_model), "c.pm", &err)) abort();
    if (proper_prism_set_consts_lenient(m, NULL, text, unknown, sizeof unknown, &err)) {
        check_error(&err);
    } else {
        proper_dtmc d;
        if (strlen(unknown) >= sizeof unknown) abort();
        for (i = 0; i < proper_prism_const_count(m); i++) {
            int type = proper_prism_const_type(m, i);
            const proper__prism_const_decl *c = &m->consts[i];
            if (!c->has_given) continue;
            if (type == PROPER_PRISM_BOOL && c->given.i != 0 && c->given.i != 1) abort();
        }
        proper_dtmc_init(&d);
        if (proper_prism_build(m, NULL, &d, &err)) check_error(&err);
        proper_dtmc_free(&d);
    }
    proper_prism_free(m);
    free(text);
    return 0;
}

#define PROPER_FUZZ_NAME "fuzz_const"
#include "replay.h"
