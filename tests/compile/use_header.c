/* Compiled by tests/run.sh as C (clang) and as C++ (g++), with and without
 * PROPER_IMPLEMENTATION: the single header must build cleanly either way,
 * and including it twice must be harmless. */
#include "../../proper.h"
#include "../../proper.h"

#ifdef PROPER_IMPLEMENTATION
int main(void) {
    proper_error err;
    proper_rng rng;
    proper_error_clear(&err);
    proper_rng_seed(&rng, 1);
    return proper_rng_uniform(&rng) < 1.0 ? 0 : 1;
}
#else
int proper_use_header_declarations(void);
int proper_use_header_declarations(void) { return PROPER_OK; }
#endif
