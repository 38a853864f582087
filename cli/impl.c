/* impl.c — the one translation unit of the CLI that holds the library's
 * implementation. Lists every module the CLI uses. */
#define PROPER_IMPLEMENTATION
#include "../src/core.h"
#include "../src/trace.h"
#include "../src/fft.h"
#include "../src/stats.h"
#include "../src/pmf.h"
#include "../src/sre.h"
#include "../src/prism.h"
#include "../src/synth.h"
#include "../src/estimate.h"
#include "../src/vlmc.h"
#include "../src/lp.h"
#include "../src/qn.h"
#include "../src/backend.h"
#include "../backends/storm.h"
#include "../backends/glpk.h"
