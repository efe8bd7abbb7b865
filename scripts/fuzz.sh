#!/bin/sh
# Runs the libFuzzer harnesses built by `make fuzz-build` (docs/fuzzing.md), one after
# the other on one core. For each harness NAME:
#   1. replays every input in fuzz/regressions/NAME/ (the crashes found so far);
#   2. fuzzes for SECONDS, starting from fuzz/corpus/NAME/ (committed seeds) and
#      build/fuzz/corpus/NAME/ (what earlier runs on this machine found), with the
#      dictionary fuzz/NAME.dict when there is one.
# A crash, a leak, a sanitizer report or an input taking over FUZZ_TIMEOUT seconds (10)
# stops that harness; the input is saved as build/fuzz/artifacts/NAME-crash-... and the
# script ends non-zero after the others have run. Full output: build/fuzz/NAME.log.
# Usage: scripts/fuzz.sh SECONDS NAME...   (FUZZ_ARGS="-max_len=32768 ..." adds libFuzzer
# options to the fuzzing runs)
set -u
if [ $# -lt 2 ]; then
	echo "usage: scripts/fuzz.sh SECONDS NAME..." >&2
	exit 2
fi
seconds=$1
shift
B=build/fuzz
timeout=${FUZZ_TIMEOUT:-10}
# one core: libFuzzer runs in this process only, and the library makes no threads
export OMP_NUM_THREADS=1
export ASAN_OPTIONS="detect_leaks=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
mkdir -p "$B/artifacts"
status=0
for name in "$@"; do
	bin="$B/fuzz_$name"
	log="$B/$name.log"
	mkdir -p "$B/corpus/$name"
	set -- -timeout="$timeout" -rss_limit_mb=2048 -malloc_limit_mb=${FUZZ_MALLOC_LIMIT_MB:-256} -artifact_prefix="$B/artifacts/$name-"
	[ -f "fuzz/$name.dict" ] && set -- "$@" -dict="fuzz/$name.dict"
	regressions=0
	[ -d "fuzz/regressions/$name" ] && regressions=$(find "fuzz/regressions/$name" -type f | wc -l)
	if [ "$regressions" -gt 0 ] && ! "$bin" "$@" -runs=0 "fuzz/regressions/$name" > "$B/$name-regressions.log" 2>&1; then
		echo "fuzz $name: a regression input fails again:"
		tail -n 40 "$B/$name-regressions.log"
		status=1
		continue
	fi
	# shellcheck disable=SC2086
	"$bin" "$@" ${FUZZ_ARGS:-} -max_total_time="$seconds" -print_final_stats=1 "$B/corpus/$name" "fuzz/corpus/$name" > "$log" 2>&1
	rc=$?
	runs=$(sed -n 's/^Done \([0-9]*\) runs in \([0-9]*\) second.*/\1 runs in \2 s/p' "$log" | tail -n 1)
	cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1)
	if [ "$rc" -eq 0 ]; then
		echo "fuzz $name: $regressions regression inputs replayed; ${runs:-?}, $cov; no crash, leak or hang"
	else
		echo "fuzz $name: FAILED (exit $rc) after $(grep -c '^#' "$log") progress lines; the input is in $B/artifacts/:"
		grep -E 'ERROR|runtime error|fuzz: |Test unit written|SUMMARY' "$log" | head -n 20
		tail -n 40 "$log"
		status=1
	fi
done
exit "$status"
