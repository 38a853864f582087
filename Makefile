# proper — build, test, run, bench.  See README.md.
CC      ?= cc
CXX     ?= g++
CLANG   ?= clang
STRICT   = -std=c99 -Wall -Wextra -Wpedantic -Werror
SAN      = -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
# Debug info of the sanitizer builds: line tables only, enough for the
# sanitizers' stack traces and a fifth cheaper to compile than full -g.
SANDBG   = -g1
OPT      = -O2
LIBS     = -lm -lpthread

# Modules in dependency order (docs/architecture.md); proper.h concatenates
# them, after the manual in src/manual.txt.
MODULES  = core trace fft stats pmf sre dtmc exact ltl prism synth estimate annot vlmc lp qn sim backend backend_native
SRC      = $(MODULES:%=src/%.h)
BACKENDS = $(wildcard backends/*.h)
CLI_SRC  = $(wildcard cli/*.c)
CLI_HDR  = $(wildcard cli/*.h)

TEST_BINS  = $(patsubst tests/%.c,build/tests/%,$(wildcard tests/test_*.c))
FUZZ_BINS  = $(patsubst tests/fuzz/%.c,build/fuzz/%,$(wildcard tests/fuzz/fuzz_*.c))
BENCH_BINS = $(patsubst bench/%.c,build/bench/%,$(wildcard bench/bench_*.c))

.PHONY: all run test test-build bench clean proper.h check-amalgamation annotated-results

all: bin/proper

bin/proper: $(CLI_SRC) $(CLI_HDR) $(SRC) $(BACKENDS)
	@mkdir -p bin
	$(CC) $(STRICT) $(OPT) -o $@ $(CLI_SRC) $(LIBS)

# The CLI built with sanitizers, for the command-line tests.
build/proper-san: $(CLI_SRC) $(CLI_HDR) $(SRC) $(BACKENDS)
	@mkdir -p build
	@echo "  build $@"
	@$(CC) $(STRICT) $(SAN) -O1 $(SANDBG) -o $@ $(CLI_SRC) $(LIBS)

# proper.h is generated and committed; this target always regenerates it.
proper.h:
	@scripts/amalgamate.sh $(MODULES) > build.proper.h.tmp && \
	 if cmp -s build.proper.h.tmp proper.h; then rm -f build.proper.h.tmp; \
	 else mv build.proper.h.tmp proper.h; echo "proper.h regenerated"; fi

# Fails when the committed proper.h is not what `make proper.h` would write.
check-amalgamation:
	@mkdir -p build
	@scripts/amalgamate.sh $(MODULES) > build/proper.h.fresh
	@cmp -s build/proper.h.fresh proper.h || \
	 { echo "proper.h is stale: run 'make proper.h' and commit it"; exit 1; }

build/tests/%: tests/%.c tests/test.h $(SRC) $(BACKENDS)
	@mkdir -p $(dir $@)
	@echo "  build $@"
	@$(CC) $(STRICT) $(SAN) -O1 $(SANDBG) -o $@ $< $(LIBS) 2> $@.log || { cat $@.log; rm -f $@; }

# the CLI's shared pieces are tested on their own
build/tests/test_cli: cli/args.c cli/json.c cli/cli.h cli/json.h
build/tests/test_bench: bench/bench.h

# The fuzz targets with a plain main that replays a corpus directory
# (tests/fuzz/replay.h): what `make test` replays the corpora with where
# clang has no libFuzzer; `make build/fuzz/fuzz_NAME` builds one anywhere.
build/fuzz/%: tests/fuzz/%.c tests/fuzz/replay.h $(SRC) $(BACKENDS)
	@mkdir -p $(dir $@)
	@echo "  build $@"
	@$(CC) $(STRICT) $(SAN) -O1 $(SANDBG) -o $@ $< $(LIBS) 2> $@.log || { cat $@.log; rm -f $@; }

# The same fuzz targets under libFuzzer (clang). `make test` replays each
# corpus with build/libfuzz/ and runs each for a fixed number of new inputs
# (tests/fuzz_job.sh); these are built at -O0, which compiles six times
# faster than -O1. scripts/fuzz.sh NAME SECONDS fuzzes one for longer with
# build/libfuzz-O1/, which runs faster. Built only where clang can link
# libFuzzer; then the replay builds above are not needed.
LIBFUZZ_BINS = $(patsubst tests/fuzz/%.c,build/libfuzz/%,$(wildcard tests/fuzz/fuzz_*.c))
LIBFUZZ = $(CLANG) -std=c99 -gline-tables-only -DPROPER_LIBFUZZER -fsanitize=fuzzer,address,undefined \
	  -fno-sanitize-recover=undefined
build/libfuzz/%: tests/fuzz/%.c $(SRC) $(BACKENDS)
	@mkdir -p $(dir $@)
	@echo "  build $@"
	@$(LIBFUZZ) -O0 -o $@ $< $(LIBS) 2> $@.log || { cat $@.log; rm -f $@; }
build/libfuzz-O1/%: tests/fuzz/%.c $(SRC) $(BACKENDS)
	@mkdir -p $(dir $@)
	@echo "  build $@"
	@$(LIBFUZZ) -O1 -o $@ $< $(LIBS) 2> $@.log || { cat $@.log; rm -f $@; }
# (the probe links into build/, never to /dev/null: a linker run as root may
# replace its output file)
HAVE_LIBFUZZER := $(shell mkdir -p build && echo 'int LLVMFuzzerTestOneInput(const char *d, long n) { return 0; }' | \
	$(CLANG) -x c -fsanitize=fuzzer -o build/libfuzzer-probe - 2>/dev/null && echo yes)

test-build: $(TEST_BINS) build/proper-san $(if $(HAVE_LIBFUZZER),$(LIBFUZZ_BINS),$(FUZZ_BINS))

# Build failures do not stop the run: tests/run.sh reports each as a failure.
test:
	@start=$$(date +%s); echo "building the tests (two jobs)..."; \
	 $(MAKE) -s -k -j2 test-build || true; PROPER_TEST_START=$$start HAVE_LIBFUZZER=$(HAVE_LIBFUZZER) sh tests/run.sh

# Benchmarks: the strict flags, optimised for this machine; bench/bench.h
# gives them their clocks, repetitions and ratio lines.
build/bench/%: bench/%.c bench/bench.h bench/gen_dtmc.h $(SRC) $(BACKENDS)
	@mkdir -p $(dir $@)
	$(CC) $(STRICT) -O3 -march=native -o $@ $< $(LIBS) $(shell sh bench/libs.sh $*)

bench: $(BENCH_BINS)
	@for b in $(BENCH_BINS); do echo "== $$b"; $$b || exit 1; done

# Annotated-code case studies, the PROPER method (examples/annotated/)
CASES = examples/annotated/cases.c examples/annotated/inputs.c examples/annotated/cases.h
build/ex/%: examples/annotated/%.c $(CASES) $(SRC) cli/svg.c cli/svg.h
	@mkdir -p $(dir $@)
	$(CC) $(STRICT) $(OPT) -o $@ $< $(filter %.c,$(CASES)) cli/svg.c $(LIBS)

annotated-results: build/ex/reproduce
	@mkdir -p docs/annotated
	build/ex/reproduce --svg docs/annotated > docs/annotated-results.md

run: bin/proper
	@sh examples/run.sh

clean:
	rm -rf build bin build.proper.h.tmp

# proper-mpi (cli/mpi/, docs/mpi.md): built only where mpicc exists; the
# library and bin/proper stay MPI-free. `make test` builds it with sanitizers.
# It parses options and writes JSON with the CLI's cli/args.c and cli/json.c.
MPICC   ?= mpicc
MPI_SRC  = $(wildcard cli/mpi/*.c) cli/args.c cli/json.c
bin/proper-mpi build/proper-mpi-san: $(MPI_SRC) $(wildcard cli/mpi/*.h) $(CLI_HDR) $(SRC)
	@mkdir -p $(dir $@)
	$(MPICC) $(STRICT) $(if $(filter build/%,$@),$(SAN) -O1 $(SANDBG),$(OPT)) -o $@ $(MPI_SRC) $(LIBS)
ifneq ($(shell command -v $(MPICC) 2>/dev/null),)
all: bin/proper-mpi
test-build: build/proper-mpi-san
endif

# annot (src/annot.h): the LD_PRELOAD library that gives the recorder heap
# and lock metrics, and the validation programs of docs/annotations-results.md
# (examples/annot/; sqlite_bench needs libsqlite3-dev, zlib_bench zlib1g-dev).
build/libproper-preload.so: preload/proper_preload.c
	@mkdir -p build
	$(CC) -std=c11 -Wall -Wextra -Wpedantic -Werror -O2 -fPIC -shared -o $@ $< -ldl -lpthread
build/examples/annot/sqlite_bench: LIBS += -lsqlite3
build/examples/annot/zlib_bench: LIBS += -lz
build/examples/annot/%: examples/annot/%.c $(SRC) $(wildcard examples/annot/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(STRICT) $(OPT) -o $@ $< $(LIBS)
annot-examples: build/libproper-preload.so $(patsubst examples/annot/%.c,build/examples/annot/%,$(wildcard examples/annot/*.c))

# sim.h examples (examples/sim/): the instrumented thread-pool program of
# docs/simulation-results.md
build/ex/sim-pool: examples/sim/pool.c $(SRC)
	@mkdir -p $(dir $@)
	$(CC) $(STRICT) $(OPT) -o $@ examples/sim/pool.c $(LIBS)
build/ex/sim-rounds: examples/sim/rounds.c $(SRC)
	@mkdir -p $(dir $@)
	$(CC) $(STRICT) $(OPT) -o $@ examples/sim/rounds.c $(LIBS)
