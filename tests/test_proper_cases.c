/* The PROPER case studies: synth on the C re-implementations
 * (examples/proper/cases.c) and on the Java originals' control structure
 * (examples/proper/java/) must give equivalent models — the same parameters
 * in the same order and the same expected rewards at any parameter values —
 * and the case-study logs must reproduce the instrumented counts. */
#define PROPER_IMPLEMENTATION
#include "../src/estimate.h"
#include "test.h"

static void check_pair(const char *java, const char *fn) {
    proper_synth_model c, j;
    proper_error e;
    proper_rng rng;
    size_t i, r;
    int k;
    char msg[800];
    if (proper_synth_from_file(&c, "examples/proper/cases.c", fn, &e) ||
        proper_synth_from_file(&j, java, fn, &e)) {
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

static void test_distance1(void) { check_pair("examples/proper/java/Distance.java", "distance1"); }
static void test_devPerf(void) { check_pair("examples/proper/java/SharedConfig.java", "devPerf"); }
static void test_fst(void) { check_pair("examples/proper/java/Search.java", "fst"); }
static void test_binarySearch(void) { check_pair("examples/proper/java/Search.java", "binarySearch"); }
static void test_knapsackDP(void) { check_pair("examples/proper/java/Dynamic.java", "knapsackDP"); }
static void test_minPathSum(void) { check_pair("examples/proper/java/Dynamic.java", "minPathSum"); }

/* minPathSum's parameters in source order: the early return, the two edge
 * loops, the outer and the inner loop of the fill. */
static void test_minPathSum_parameters(void) {
    proper_synth_model m;
    proper_error e;
    CHECK_INT(proper_synth_from_file(&m, "examples/proper/cases.c", "minPathSum", &e), 0);
    CHECK_INT(m.n_params, 5);
    CHECK_INT(m.params[0].is_loop, 0);
    CHECK_INT(m.params[1].is_loop, 1);
    CHECK_INT(m.params[4].is_loop, 1);
    CHECK(m.params[4].line == m.params[3].line + 1);
    CHECK_INT(proper_synth_reward_index(&m, "cost"), 1);
    proper_synth_free(&m);
}

int main(void) {
    RUN(test_distance1);
    RUN(test_devPerf);
    RUN(test_fst);
    RUN(test_binarySearch);
    RUN(test_knapsackDP);
    RUN(test_minPathSum);
    RUN(test_minPathSum_parameters);
    return test_summary();
}
