/* bench_prism — building a PRISM-language model whose every state has its
 * own command (the shape proper synth and the VLMC hull export: one
 * `[] s=k -> ...` per state), against loading the same chain from PRISM's
 * explicit .tra text, in the same run. The target: 10^6 states and
 * 10^6 one-state commands built in under 2 s. When PROPER_PRISM (or prism
 * in PATH) is set, PRISM's own build time of the same file is printed too
 * (explicit engine, one run, wall clock, JVM start included).
 * Then, for each size n, the refusal of a model that cannot fit: two
 * coupled variables of 4000 values each (16 x 10^6 reachable states, no
 * independent groups to count apart) with the state limit set to n,
 * against the build of the n-state chain: refusing should cost about what
 * exploring n states costs (a ratio near 1), not more.
 *
 *     build/bench/bench_prism [N ...]     (default 1000 10000 100000 1000000)
 */
#include "bench.h"
#define PROPER_IMPLEMENTATION
#include "../src/prism.h"

#include <stdlib.h>

/* The chain: state k moves to (k+1) mod n with 1/2 and to (7k+3) mod n with 1/2. */
static unsigned long next_a(unsigned long k, unsigned long n) { return (k + 1) % n; }
static unsigned long next_b(unsigned long k, unsigned long n) { return (7 * k + 3) % n; }

static char *model_text(unsigned long n, size_t *len) {
    proper_strbuf b;
    unsigned long k;
    proper_strbuf_init(&b);
    proper_strbuf_printf(&b, "dtmc\nmodule chain\n s : [0..%lu] init 0;\n", n - 1);
    for (k = 0; k < n; k++)
        proper_strbuf_printf(&b, " [] s=%lu -> 0.5:(s'=%lu) + 0.5:(s'=%lu);\n", k, next_a(k, n), next_b(k, n));
    proper_strbuf_printf(&b, "endmodule\n");
    *len = b.len;
    return proper_strbuf_take(&b);
}

static char *tra_text(unsigned long n, size_t *len) {
    proper_strbuf b;
    unsigned long k;
    unsigned long trans = 0;
    for (k = 0; k < n; k++) trans += next_a(k, n) == next_b(k, n) ? 1 : 2;
    proper_strbuf_init(&b);
    proper_strbuf_printf(&b, "%lu %lu\n", n, trans);
    for (k = 0; k < n; k++) {
        unsigned long a = next_a(k, n), c = next_b(k, n);
        if (a == c) proper_strbuf_printf(&b, "%lu %lu 1\n", k, a);
        else if (a < c) proper_strbuf_printf(&b, "%lu %lu 0.5\n%lu %lu 0.5\n", k, a, k, c);
        else proper_strbuf_printf(&b, "%lu %lu 0.5\n%lu %lu 0.5\n", k, c, k, a);
    }
    *len = b.len;
    return proper_strbuf_take(&b);
}

typedef struct ctx {
    const char *text;
    size_t len;
    unsigned long n;
    int failed;
} ctx;

static void build_model(void *p) {
    ctx *c = (ctx *)p;
    proper_prism_model *m = NULL;
    proper_dtmc d;
    proper_error err;
    proper_dtmc_init(&d);
    if (proper_prism_parse(&m, c->text, c->len, "chain.pm", &err) || proper_prism_build(m, NULL, &d, &err) ||
        d.n_states != c->n) {
        if (!c->failed) fprintf(stderr, "bench_prism: %s\n", err.message);
        c->failed = 1;
    }
    proper_dtmc_free(&d);
    proper_prism_free(m);
}

/* 16 x 10^6 states, every variable read by the other's update. */
static const char *coupled_text = "dtmc\nmodule m\n x : [0..3999];\n y : [0..3999];\n"
                                  " [] true -> 0.5:(x'=mod(x+1,4000)) + 0.5:(y'=mod(y+x+1,4000));\nendmodule\n";

/* Building the coupled model with the state limit c->n must fail with
 * PROPER_ELIMIT. */
static void refuse_coupled(void *p) {
    ctx *c = (ctx *)p;
    proper_prism_model *m = NULL;
    proper_prism_build_opts o = proper_prism_build_opts_default();
    proper_dtmc d;
    proper_error err;
    int rc;
    proper_dtmc_init(&d);
    o.max_states = (uint32_t)c->n;
    if (proper_prism_parse(&m, c->text, c->len, "coupled.pm", &err) || (rc = proper_prism_build(m, &o, &d, &err)) != PROPER_ELIMIT) {
        if (!c->failed) fprintf(stderr, "bench_prism: the coupled model was not refused\n");
        c->failed = 1;
    }
    proper_dtmc_free(&d);
    proper_prism_free(m);
}

static void load_tra(void *p) {
    ctx *c = (ctx *)p;
    proper_dtmc d;
    proper_error err;
    proper_dtmc_init(&d);
    if (proper_dtmc_parse_tra(&d, c->text, c->len, "chain.tra", NULL, &err) || d.n_states != c->n) {
        if (!c->failed) fprintf(stderr, "bench_prism: %s\n", err.message);
        c->failed = 1;
    }
    proper_dtmc_free(&d);
}

/* PRISM's build of the same model file, when PRISM is installed (seconds, or -1). */
static double prism_build_seconds(const char *text, size_t len) {
    const char *prism = getenv("PROPER_PRISM");
    char cmd[1024];
    FILE *f = fopen("build/bench_prism_chain.pm", "wb");
    double t0, t1;
    if (!prism || !f) {
        if (f) fclose(f);
        return -1;
    }
    fwrite(text, 1, len, f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "%s -ex build/bench_prism_chain.pm > /dev/null 2>&1", prism);
    t0 = bench_now(BENCH_WALL);
    if (system(cmd) != 0) return -1;
    t1 = bench_now(BENCH_WALL);
    return t1 - t0;
}

int main(int argc, char **argv) {
    static const unsigned long defaults[] = {1000, 10000, 100000, 1000000};
    int i, n_sizes = argc > 1 ? argc - 1 : 4, status = 0;
    for (i = 0; i < n_sizes; i++) {
        unsigned long n = argc > 1 ? strtoul(argv[i + 1], NULL, 10) : defaults[i];
        ctx pm, tra, big;
        bench_result rb, rt, rr;
        char label[64];
        double prism;
        memset(&pm, 0, sizeof pm);
        memset(&tra, 0, sizeof tra);
        pm.n = tra.n = n;
        pm.text = model_text(n, &pm.len);
        tra.text = tra_text(n, &tra.len);
        rt = bench_run(load_tra, &tra, BENCH_CPU, n >= 100000 ? 3 : 7, 0.05);
        rb = bench_run(build_model, &pm, BENCH_CPU, n >= 100000 ? 3 : 7, 0.05);
        snprintf(label, sizeof label, "explicit .tra, %lu states", n);
        bench_print(stdout, label, &rt, NULL);
        snprintf(label, sizeof label, "language, %lu commands", n);
        bench_print(stdout, label, &rb, &rt);
        if ((prism = prism_build_seconds(pm.text, pm.len)) >= 0) printf("  PRISM's build of the same file: %.3g s (wall)\n", prism);
        memset(&big, 0, sizeof big);
        big.n = n;
        big.text = coupled_text;
        big.len = strlen(coupled_text);
        rr = bench_run(refuse_coupled, &big, BENCH_CPU, n >= 100000 ? 3 : 7, 0.05);
        snprintf(label, sizeof label, "refusing 16e6 states at limit %lu", n);
        bench_print(stdout, label, &rr, &rb);
        if (pm.failed || tra.failed || big.failed) status = 1;
        PROPER_FREE((char *)pm.text);
        PROPER_FREE((char *)tra.text);
    }
    return status;
}
