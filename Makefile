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

$(B)/librout.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(B)/rout: $(CLI_OBJ) $(B)/librout.a
	$(CC) $(CFLAGS) -o $@ $(CLI_OBJ) $(B)/librout.a $(LIBS)

$(B)/rout-tests: $(TEST_OBJ) $(B)/librout.a
	$(CC) $(CFLAGS) -o $@ $(TEST_OBJ) $(B)/librout.a $(LIBS)

# Run the tests (filter with T=name-substring).
test: $(B)/rout-tests $(B)/rout
	$(B)/rout-tests $(T)

check: deps
	@$(MAKE) --no-print-directory test

# The same tests under AddressSanitizer and UndefinedBehaviorSanitizer.
sanitize: deps
	@$(MAKE) --no-print-directory B=build/sanitize \
		CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
		build/sanitize/rout-tests
	ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=tests/lsan.supp UBSAN_OPTIONS=print_stacktrace=1 \
		build/sanitize/rout-tests $(T)

demo: deps
	@$(MAKE) --no-print-directory all
	$(B)/rout run scenarios/songjin-1641 --out out/demo

bench: deps
	@$(MAKE) --no-print-directory all
	$(B)/rout bench crowd --agents 1000000 --steps 50 --threads 2

# The pictures in the README, written by rout itself.
readme-images: demo
	$(B)/rout scene bottleneck --seconds 40 --out out/readme-bottleneck
	cp out/readme-bottleneck/middle.png docs/img/bottleneck.png
	$(B)/rout render out/demo --at 1641-09-26T02:00 --out docs/img/songjin-0200.png --width 1200
	cp out/demo/plot-states.png docs/img/songjin-states.png
	cp out/demo/plot-sea-light.png docs/img/songjin-sea-light.png

clean:
	rm -rf build out
