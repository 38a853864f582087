/* The PROPER case studies: synth on the C re-implementations
 * (examples/annotated/cases.c) and on the Java originals' control structure
 * (examples/annotated/java/) must give equivalent models — the same parameters
 * in the same order and the same expected rewards at any parameter values —
 * and the case-study logs must reproduce the instrumented counts. */
#define PROPER_IMPLEMENTATION
#include "../src/estimate.h"
#include "test.h"

static void check_pair(const char *java, const char *fn) {
    proper_synth_model c, j;
    proper_synth_init(&c);
    proper_synth_init(&j);
    proper_error e;
    proper_rng rng;
    size_t i, r;
    int k;
    char msg[800];
    if (proper_synth_read(&c, "examples/annotated/cases.c", fn, &e) ||
        proper_synth_read(&j, java, fn, &e)) {
        printf("  %s\n", proper_error_format(&e, msg, sizeof msg));
        CHECK(0);
        return;
    }
    CHECK_INT(j.n_params, c.n_params);
    CHECK_INT(j.n_rewards, c.n_rewards);
    for (i = 0; i < c.n_params && i < j.n_params; i++) CHECK_INT(j.params[i].is_loop, c.params[i].is_loop);
    proper_rng_seed(&rng, 5);
    for (k = 0; k < 20 && j.n_params == c.n_params && j.n_rewards == c.n_rewards; k++) {
        double p[16];
        for (i = 0; i < c.n_params; i++) p[i] = 0.95 * proper_rng_uniform(&rng);
        for (r = 0; r < c.n_rewards; r++) {
            double vc, vj;
            CHECK_STR(j.reward_names[r], c.reward_names[r]);
            CHECK_INT(proper_synth_expected_reward(&c, (int)r, p, &vc, &e), 0);
            CHECK_INT(proper_synth_expected_reward(&j, (int)r, p, &vj, &e), 0);
            CHECK_REL(vj, vc, 1e-12);
        }
    }
    proper_synth_free(&c);
    proper_synth_free(&j);
}

static void test_distance1(void) { check_pair("examples/annotated/java/Distance.java", "distance1"); }
static void test_devPerf(void) { check_pair("examples/annotated/java/SharedConfig.java", "devPerf"); }
static void test_fst(void) { check_pair("examples/annotated/java/Search.java", "fst"); }
static void test_binarySearch(void) { check_pair("examples/annotated/java/Search.java", "binarySearch"); }
static void test_knapsackDP(void) { check_pair("examples/annotated/java/Dynamic.java", "knapsackDP"); }
static void test_minPathSum(void) { check_pair("examples/annotated/java/Dynamic.java", "minPathSum"); }

/* minPathSum's parameters in source order: the early return, the two edge
 * loops, the outer and the inner loop of the fill. */
static void test_minPathSum_parameters(void) {
    proper_synth_model m;
    proper_synth_init(&m);
    proper_error e;
    CHECK_INT(proper_synth_read(&m, "examples/annotated/cases.c", "minPathSum", &e), 0);
    CHECK_INT(m.n_params, 5);
    CHECK_INT(m.params[0].is_loop, 0);
    CHECK_INT(m.params[1].is_loop, 1);
    CHECK_INT(m.params[4].is_loop, 1);
    CHECK(m.params[4].line == m.params[3].line + 1);
    CHECK_INT(proper_synth_reward_index(&m, "cost"), 1);
    proper_synth_free(&m);
}

/* The paper's Fig. 5 anchor: synthesised from source, minPathSum at
 * p1=0.0912, p2=0.8181, p3=0.8, p4=p5=0.8181 has expected time
 * 32504164372/51699390625 and cost 9503884062/2067975625 (the exact values
 * of the paper's model; tests/test_prism.c derives them independently from
 * tests/corpus/prism/minpathsum.pm). */
static void test_minPathSum_paper_values(void) {
    const char *files[2] = {"examples/annotated/cases.c", "examples/annotated/java/Dynamic.java"};
    double p[5] = {0.0912, 0.8181, 0.8, 0.8181, 0.8181}, time, cost;
    proper_synth_model m;
    proper_synth_init(&m);
    proper_error e;
    int k;
    for (k = 0; k < 2; k++) {
        CHECK_INT(proper_synth_read(&m, files[k], "minPathSum", &e), 0);
        CHECK_INT(proper_synth_expected_reward(&m, proper_synth_reward_index(&m, "time"), p, &time, &e), 0);
        CHECK_INT(proper_synth_expected_reward(&m, proper_synth_reward_index(&m, "cost"), p, &cost, &e), 0);
        CHECK_REL(time, 32504164372.0 / 51699390625.0, 1e-13);
        CHECK_REL(cost, 9503884062.0 / 2067975625.0, 1e-13);
        proper_synth_free(&m);
    }
}

int main(void) {
    RUN(test_distance1);
    RUN(test_devPerf);
    RUN(test_fst);
    RUN(test_binarySearch);
    RUN(test_knapsackDP);
    RUN(test_minPathSum);
    RUN(test_minPathSum_parameters);
    RUN(test_minPathSum_paper_values);
    return test_summary();
}
