/* impl.c — the one translation unit of proper-mpi that holds the library's
 * implementation: every module the MPI tool uses. */
#define PROPER_IMPLEMENTATION
#include "../../src/core.h"
#include "../../src/trace.h"
#include "../../src/pmf.h"
#include "../../src/sre.h"
#include "../../src/estimate.h"
#include "../../src/vlmc.h"
#include "../../src/annot.h"
