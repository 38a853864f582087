/* zlib_bench.c — zlib's compress2 (the Debian library) under the annot
 * recorder: CPU time of one compress2 call against the input size (4 KiB
 * to 1 MiB), the level (1, 6, 9) and the compressibility (the fraction of
 * random bytes: 0, 0.25, 0.5, 1; the rest repeats an English sentence).
 * Usage: zlib_bench LOG [CALLS]   (default 600) */
#define PROPER_IMPLEMENTATION
#include "../../src/annot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define MAXN (1u << 20)

int main(int argc, char **argv) {
    static unsigned char in[MAXN], out[MAXN + MAXN / 100 + 1024];
    static const char text[] = "The quick brown fox jumps over the lazy dog while the performance engineer watches. ";
    static const int levels[3] = {1, 6, 9};
    static const double fracs[4] = {0, 0.25, 0.5, 1};
    proper_annot_writer *w;
    proper_annot_recorder r;
    proper_error err;
    proper_rng rng;
    size_t calls = argc > 2 ? (size_t)atol(argv[2]) : 600, i, j;
    int f;
    if (argc < 2) {
        fprintf(stderr, "usage: zlib_bench LOG [CALLS]\n");
        return 2;
    }
    if (proper_annot_writer_open(&w, argv[1], calls, PROPER_ANNOT_M_CPU, 1, &err) ||
        (f = proper_annot_writer_function(w, "compress2", "size level random", &err)) < 0 ||
        proper_annot_recorder_init(&r, w, &err)) {
        fprintf(stderr, "zlib_bench: %s\n", err.message);
        return 2;
    }
    proper_rng_seed(&rng, 4);
    for (i = 0; i < calls; i++) {
        size_t n = (size_t)4096 * (1 + (size_t)proper_rng_below(&rng, 256));
        int level = levels[proper_rng_below(&rng, 3)];
        double frac = fracs[proper_rng_below(&rng, 4)];
        uLongf outlen = sizeof out;
        /* blocks of 64 bytes: random with probability frac, else text */
        for (j = 0; j < n; j += 64) {
            size_t k, m = n - j < 64 ? n - j : 64;
            if (proper_rng_uniform(&rng) < frac)
                for (k = 0; k < m; k++) in[j + k] = (unsigned char)proper_rng_below(&rng, 256);
            else
                for (k = 0; k < m; k++) in[j + k] = (unsigned char)text[(j + k) % (sizeof text - 1)];
        }
        proper_annot_begin(&r, f);
        proper_annot_feature(&r, 0, (double)n);
        proper_annot_feature(&r, 1, level);
        proper_annot_feature(&r, 2, frac);
        if (compress2(out, &outlen, in, (uLong)n, level) != Z_OK) return 3;
        proper_annot_end(&r);
    }
    proper_annot_recorder_flush(&r, &err);
    proper_annot_recorder_free(&r);
    if (proper_annot_writer_close(w, &err)) {
        fprintf(stderr, "zlib_bench: %s\n", err.message);
        return 2;
    }
    printf("zlib %s\n", zlibVersion());
    return 0;
}
