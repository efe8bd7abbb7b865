# rout: `make` builds build/librout.a and build/rout; `make check` installs what is
# missing, builds and runs every test; `make demo` runs the demonstration scene.
CC      ?= cc
PKGS    := cairo jansson yaml-0.1
CSTD    := -std=c17 -D_POSIX_C_SOURCE=200809L
WARN    := -Wall -Wextra -Wpedantic -Wmissing-prototypes -Wshadow -Werror
CFLAGS  ?= -O2 -g
FLAGS   := $(CSTD) $(WARN) -fopenmp -ffp-contract=off -fno-math-errno -Iinclude -Isrc $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
LIBS    := $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lm -fopenmp
B       ?= build
# Open MPI, for ensembles across machines (DESIGN.md; cli/cluster.h): the command only,
# never the library; built without it where it is not installed (one machine).
MPI_LIBS  := $(shell pkg-config --libs ompi-c 2>/dev/null)
MPI_FLAGS := $(if $(MPI_LIBS),-DROUT_MPI $(patsubst -I%,-isystem %,$(shell pkg-config --cflags ompi-c 2>/dev/null)))

LIB_SRC   := $(wildcard src/*.c)
CLI_SRC   := $(wildcard cli/*.c)
TEST_SRC  := $(wildcard tests/*.c)
LIB_OBJ   := $(LIB_SRC:%.c=$(B)/%.o)
CLI_OBJ   := $(CLI_SRC:%.c=$(B)/%.o)
TEST_OBJ  := $(TEST_SRC:%.c=$(B)/%.o)

.PHONY: all deps check test sanitize demo bench clean readme-images
all: $(B)/rout

# The replay page is carried inside the library as C strings.
src/replay_template.h: viewer/replay.html scripts/embed-template.sh
	sh scripts/embed-template.sh

deps:
	@sh scripts/setup-deps.sh

$(B)/%.o: %.c $(wildcard include/rout/*.h src/*.h tests/*.h) Makefile
	@mkdir -p $(dir $@)
	@echo "  CC $<"
	@$(CC) $(FLAGS) $(CFLAGS) -c $< -o $@

$(B)/cli/%.o: cli/%.c $(wildcard include/rout/*.h cli/*.h) Makefile
	@mkdir -p $(dir $@)
	@echo "  CC $<"
	@$(CC) $(FLAGS) $(MPI_FLAGS) $(CFLAGS) -c $< -o $@

$(B)/librout.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(B)/rout: $(CLI_OBJ) $(B)/librout.a
	$(CC) $(CFLAGS) -o $@ $(CLI_OBJ) $(B)/librout.a $(LIBS) $(MPI_LIBS)

$(B)/rout-tests: $(TEST_OBJ) $(B)/librout.a
	$(CC) $(CFLAGS) -o $@ $(TEST_OBJ) $(B)/librout.a $(LIBS)

# Run the tests (filter with T=name-substring).
# J tests run at once, each in a process of its own (tests/main.c); J=1 runs them one
# after another in one process.
J ?= $(shell nproc 2>/dev/null || echo 1)

test: $(B)/rout-tests $(B)/rout
	$(B)/rout-tests -j $(J) $(T)

check: deps
	@$(MAKE) --no-print-directory test

# The same tests under AddressSanitizer and UndefinedBehaviorSanitizer. At -O2, not -O1:
# the sanitizer tests are CI's long pole, and at -O2 they ran a fifth faster (2026-12-07:
# ten of the slowest, 157 s at -O1, 127 s at -O2; every test still passes). ASan and UBSan
# instrument the optimised code; what the optimiser removes was never read or written.
sanitize: deps
	@$(MAKE) --no-print-directory B=build/sanitize \
		CFLAGS="-O2 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
		build/sanitize/rout-tests
	ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=tests/lsan.supp UBSAN_OPTIONS=print_stacktrace=1 \
		build/sanitize/rout-tests -j $(J) $(T)

demo: deps
	@$(MAKE) --no-print-directory all
	$(B)/rout run scenarios/songjin-1641 --until 1641-09-26T12:00 --out out/demo

# The crowd kernel at a million men, then the two battles from their start (the rows
# committed in bench/results/<machine>/scenarios.csv). `make bench RESULTS=bench/results/c-2core`
# appends the rows to that folder's crowd.csv and scenarios.csv, with the date and commit.
RESULTS ?=
BENCH_ENV := ROUT_COMMIT=$$(git rev-parse --short HEAD 2>/dev/null)
bench: deps
	@$(MAKE) --no-print-directory all
	$(BENCH_ENV) $(B)/rout bench crowd --agents 1000000 --steps 50 --threads 2 $(if $(RESULTS),--csv $(RESULTS)/crowd.csv)
	$(BENCH_ENV) $(B)/rout bench scenario scenarios/songjin-1641 --until 1641-09-25T23:00 --threads 2 $(if $(RESULTS),--csv $(RESULTS)/scenarios.csv)
	$(BENCH_ENV) $(B)/rout bench scenario scenarios/dalinghe-1631 --until 1631-10-22T10:20 --threads 2 $(if $(RESULTS),--csv $(RESULTS)/scenarios.csv)

# The pictures in the README, written by rout itself.
readme-images: demo
	$(B)/rout scene bottleneck --seconds 40 --out out/readme-bottleneck
	cp out/readme-bottleneck/middle.png docs/img/bottleneck.png
	$(B)/rout render out/demo --at 1641-09-26T02:45 --out docs/img/songjin-0245.png --width 1200
	cp out/demo/plot-states.png docs/img/songjin-states.png
	cp out/demo/plot-sea-light.png docs/img/songjin-sea-light.png

clean:
	rm -rf build out

# ---- fuzzing (docs/fuzzing.md) -------------------------------------------------------
# Each fuzz/fuzz_NAME.c is a libFuzzer harness, built with clang under AddressSanitizer
# and UndefinedBehaviorSanitizer into build/fuzz/fuzz_NAME. Its seeds are in
# fuzz/corpus/NAME/, its dictionary (if any) is fuzz/NAME.dict and the inputs that once
# crashed it are in fuzz/regressions/NAME/. A new harness (the scenario loader's) needs
# only those files: the targets below find it.
# `make fuzz` replays the regressions and fuzzes each harness for FUZZ_SECONDS (60);
# `make fuzz-ci` does the same for FUZZ_CI_SECONDS (20), as CI does.
FUZZ_CC         ?= clang
FUZZ_SECONDS    ?= 60
FUZZ_CI_SECONDS ?= 20
FUZZ_B          := build/fuzz
FUZZ_NAMES      := $(patsubst fuzz/fuzz_%.c,%,$(wildcard fuzz/fuzz_*.c))
FUZZ_FLAGS      := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_LIB_OBJ    := $(LIB_SRC:%.c=$(FUZZ_B)/%.o)

.PHONY: fuzz fuzz-ci fuzz-build fuzz-seeds

$(FUZZ_B)/%.o: %.c $(wildcard include/rout/*.h src/*.h) Makefile
	@mkdir -p $(dir $@)
	@echo "  CC (fuzz) $<"
	@$(FUZZ_CC) $(FLAGS) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link -c $< -o $@

$(FUZZ_B)/librout.a: $(FUZZ_LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(FUZZ_B)/fuzz_%: fuzz/fuzz_%.c fuzz/fuzz.h $(FUZZ_B)/librout.a
	$(FUZZ_CC) $(FLAGS) $(FUZZ_FLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_B)/librout.a $(LIBS)

fuzz-build: deps
	@$(MAKE) --no-print-directory $(FUZZ_NAMES:%=$(FUZZ_B)/fuzz_%)

fuzz: fuzz-build
	sh scripts/fuzz.sh $(FUZZ_SECONDS) $(FUZZ_NAMES)

fuzz-ci: fuzz-build
	sh scripts/fuzz.sh $(FUZZ_CI_SECONDS) $(FUZZ_NAMES)

# Rewrites the seed corpora: the maps of the tests, good and bad, and small traces
# written by the library's own trace writer.
$(B)/make_trace_seeds: fuzz/make_trace_seeds.c $(B)/librout.a
	$(CC) $(FLAGS) $(CFLAGS) -o $@ $< $(B)/librout.a $(LIBS)

fuzz-seeds: $(B)/make_trace_seeds
	@mkdir -p fuzz/corpus/map fuzz/corpus/trace
	for f in tests/data/maps/*.geojson; do cp $$f fuzz/corpus/map/; done
	for f in tests/bad/maps/*.geojson; do cp $$f fuzz/corpus/map/bad-$$(basename $$f); done
	$(B)/make_trace_seeds fuzz/corpus/trace
	@mkdir -p fuzz/corpus/scenario
	for d in scenarios/*/; do cp $$d/scenario.yaml fuzz/corpus/scenario/$$(basename $$d | sed "s/-[0-9]*$$//").yaml; done
	cp tests/data/scenarios/mini/scenario.yaml fuzz/corpus/scenario/mini.yaml
	for f in tests/bad/scenarios/*.yaml; do cp $$f fuzz/corpus/scenario/bad-$$(basename $$f); done
