#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Runs every test of the hyptrace tool and ends with exactly one line
# "tools: N passed, N failed"; exit status 1 on any failure. Every test
# reports in KTAP, each "ok N ..." / "not ok N ..." line one check
# (counted by tests/include/suite.sh: a test that fails without a "not ok"
# line, or reports no check, counts as one failure):
#
#   - the C tests, MY_TESTS and the other *_test programs (OTHER_TESTS),
#     through tests/include/check.h;
#   - a short run of each fuzzer in FUZZERS ("NAME:SECONDS:MAX_LEN ...",
#     SECONDS replaced by FUZZ_TEST_TIME when that is set), one check each;
#   - every t-*.sh script, through tests/include/ktap.sh, run by sh (dash).
#
# After each test, /dev/null must still be the null device: a tool run as
# root that renames a file over its output (hyptrace perfetto -o
# /dev/null did) turns it into a regular file for the whole machine, and
# every later '</dev/null' reads what was written to it. The test that
# did it fails by name rather than the ones after it.
#
# usage: run_tests.sh "<build command>"   (BUILD, HYPTRACE, FUZZERS,
#                                          MY_TESTS, OTHER_TESTS set)

HERE=$(cd "$(dirname "$0")" && pwd)
# suite_count, suite_fuzz, $passed, $failed
# shellcheck source=tests/include/suite.sh
. "$HERE/../include/suite.sh"

out=$BUILD/out.txt

# devnull_kept NAME: one more check, failed if /dev/null is no longer a
# character device after NAME ran
devnull_kept() {
	[ -c /dev/null ] && return 0
	echo "not ok 1 $1: /dev/null is no longer the null device ($(ls -l /dev/null)): this test replaced it" >"$out"
	cat "$out"
	suite_count "$1 /dev/null" 1 "$out"
}

mkdir -p "$BUILD"
echo "== build"
if $1 > "$BUILD/build.log" 2>&1; then
	echo "ok 1 build" >"$out"
	rc=0
else
	tail -n 20 "$BUILD/build.log"
	echo "not ok 1 build: see $BUILD/build.log (tests that built still run)" >"$out"
	rc=1
fi
suite_count build $rc "$out"

for t in $MY_TESTS $OTHER_TESTS; do
	echo "== $t"
	if [ ! -x "$BUILD/$t" ]; then
		echo "not ok 1 $t: did not build" >"$out"
		rc=1
	else
		"$BUILD/$t" > "$out" 2>&1
		rc=$?
	fi
	cat "$out"
	suite_count "$t" $rc "$out"
	devnull_kept "$t"
done

# FUZZERS: NAME:SECONDS:MAX_LEN each; FUZZ_TEST_TIME, if set, for all
for f in $FUZZERS; do
	secs=${FUZZ_TEST_TIME:-$(echo "$f" | cut -d: -f2)}
	suite_fuzz "$BUILD" "fuzz_${f%%:*}" "$secs" "${f##*:}" "corpus/${f%%:*}"
	devnull_kept "fuzz_${f%%:*}"
done

export BUILD HYPTRACE
export GEN_TRACE="$BUILD/gen_trace"
export FIXTURES="$HERE/fixtures"
for s in "$HERE"/t-*.sh; do
	[ -f "$s" ] || continue
	name=$(basename "$s" .sh)
	echo "== $name"
	start=$(date +%s)
	sh "$s" > "$out" 2>&1
	rc=$?
	# its diagnostics and failed checks, not every passed one
	grep -v '^ok ' "$out" | tail -n 25
	echo "   ($(( $(date +%s) - start )) s, exit $rc)"
	suite_count "$name" $rc "$out"
	devnull_kept "$name"
done

echo "tools: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
