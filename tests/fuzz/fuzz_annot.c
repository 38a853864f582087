/* Fuzz target for the annotation language (annot.h): any input either parses
 * or fails with an error inside the input; whatever parses must print to
 * text that parses back to an equal annotation and prints the same (round
 * trip), and its expressions evaluate without crashing. Without
 * PROPER_LIBFUZZER, main replays every file of directory argv[1]. */
#define PROPER_IMPLEMENTATION
#include "../../src/annot.h"

#include <stdlib.h>
#include <string.h>

static void check_error(const proper_error *err, const uint8_t *data, size_t size) {
    size_t lines = 1, i;
    for (i = 0; i < size; i++) lines += data[i] == '\n';
    if (err->code == PROPER_ENOMEM) return;
    if (err->line < 1 || (size_t)err->line > lines || err->col < 1 || err->message[0] == '\0') abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    proper_annot a, b;
    proper_error err;
    proper_strbuf s1, s2;
    proper_annot_init(&a);
    proper_annot_init(&b);
    proper_strbuf_init(&s1);
    proper_strbuf_init(&s2);
    if (proper_annot_parse(&a, (const char *)data, size, "fuzz", &err) == PROPER_OK) {
        size_t k;
        double vars[64], br[2] = {1, 0};
        if (proper_annot_format(&a, &s1, &err)) abort();
        if (proper_annot_parse(&b, s1.data ? s1.data : "", s1.len, "printed", &err)) abort();
        if (!proper_annot_equal(&a, &b)) abort();
        if (proper_annot_format(&b, &s2, &err)) abort();
        if (strcmp(s1.data ? s1.data : "", s2.data ? s2.data : "") != 0) abort();
        for (k = 0; k < 64; k++) vars[k] = (double)k - 3;
        if (a.names.len <= 64)
            for (k = 0; k < a.n_ex; k++) (void)proper_annot_eval(&a, (int)k, vars, br, 2);
    } else {
        check_error(&err, data, size);
    }
    proper_strbuf_free(&s1);
    proper_strbuf_free(&s2);
    proper_annot_free(&a);
    proper_annot_free(&b);
    return 0;
}

#define PROPER_FUZZ_NAME "fuzz_annot"
#include "replay.h"
