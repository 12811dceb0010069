#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Runs every ringbuf test, counts the "ok ..."/"not ok ..." lines of their
# KTAP output (tests/include/check.h; counted by tests/include/suite.sh)
# and ends with exactly one line "ringbuf: N passed, N failed". Exit
# status 1 on failure.
# usage: run_tests.sh "<build command>"
# (BUILD, EVENTS, FUZZ_TEST_TIME, FUZZ_PAGE_TEST_TIME set)

HERE=$(cd "$(dirname "$0")" && pwd)
# suite_count, suite_fuzz, $passed, $failed
# shellcheck source=tests/include/suite.sh
. "$HERE/../include/suite.sh"

run() {		# run <name> <command...>
	name=$1
	shift
	echo "== $name: $*"
	start=$(date +%s)
	"$@" > "$BUILD/out.txt" 2>&1
	rc=$?
	grep -v '^  #\|^    #' "$BUILD/out.txt" | tail -n 40
	echo "   ($(( $(date +%s) - start )) s, exit $rc)"
	suite_count "$name" $rc "$BUILD/out.txt"
}

mkdir -p "$BUILD"
if $1 > "$BUILD/build.log" 2>&1; then
	echo "ok 1 build: host tests and freestanding aarch64 objects" \
		> "$BUILD/out.txt"
	rc=0
else
	tail -n 30 "$BUILD/build.log"
	echo "not ok 1 build: see $BUILD/build.log" > "$BUILD/out.txt"
	rc=1
fi
cat "$BUILD/out.txt"
suite_count build $rc "$BUILD/out.txt"
if [ $rc -ne 0 ]; then
	echo "ringbuf: $passed passed, $failed failed"
	exit 1
fi

run format "$BUILD/format_test"
run "page descriptor" "$BUILD/desc_test"
run "page check" "$BUILD/page_check_test"
run "record decoder" "$BUILD/rec_test"
TSAN_OPTIONS="halt_on_error=1 exitcode=66" \
	run "concurrency TSan overwrite" "$BUILD/concurrency_tsan" "$EVENTS" 2 16
TSAN_OPTIONS="halt_on_error=1 exitcode=66" \
	run "concurrency TSan no-overwrite" "$BUILD/concurrency_tsan" 2000000 2 8 keep
run "concurrency ASan overwrite" "$BUILD/concurrency_asan" "$EVENTS" 2 16
run "concurrency ASan no-overwrite, 3 CPUs" "$BUILD/concurrency_asan" 3000000 3 4 keep
# The raw files' reader, the writer often filling its page just before it
# asks for the next one (the 34 events 88-virtio-agent once lost)
run "concurrency ASan no-overwrite, raw reader, swap window" \
	"$BUILD/concurrency_asan" 2000000 2 4 keep raw 3

suite_fuzz "$BUILD" fuzz_ringbuf "$FUZZ_TEST_TIME" 4096 corpus
suite_fuzz "$BUILD" fuzz_page "${FUZZ_PAGE_TEST_TIME:-20}" 8192 corpus_page

echo "ringbuf: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
