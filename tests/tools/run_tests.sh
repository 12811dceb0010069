#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Runs every test of the hyptrace tool and ends with exactly one line
# "tools: N passed, N failed"; exit status 1 on any failure.
#
#   - the C tests, MY_TESTS and the other *_test programs (OTHER_TESTS):
#     each "ok N name" / "not ok N name" line of their KTAP output
#     (tests/include/check.h) counts; a program that fails without a
#     "not ok" line, or reports no test at all, counts as one failure;
#   - every t-*.sh script: one result each, by exit status, with its last
#     line as the reason;
#   - a short run of each fuzzer in FUZZERS ("NAME:SECONDS:MAX_LEN ...",
#     SECONDS replaced by FUZZ_TEST_TIME when that is set).
#
# usage: run_tests.sh "<build command>"   (BUILD, HYPTRACE, FUZZERS,
#                                          MY_TESTS, OTHER_TESTS set)

HERE=$(cd "$(dirname "$0")" && pwd)
passed=0
failed=0

count() {	# count <name> <exit status> <KTAP output file>
	p=$(grep -c '^ok ' "$3")
	f=$(grep -c '^not ok ' "$3")
	if [ "$2" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "FAIL $1: exit status $2"
		f=1
	elif [ $((p + f)) -eq 0 ]; then
		echo "FAIL $1: no test reported"
		f=1
	fi
	passed=$((passed + p))
	failed=$((failed + f))
}

one() {		# one <name> <ok 0/1> <reason>
	set -- "$1" "$2" "$(echo "$3" | sed -e 's/^\(PASS\|FAIL\):* *//' \
		-e "s/^$1: //")"
	if [ "$2" -eq 0 ]; then
		echo "PASS $1: $3"
		passed=$((passed + 1))
	else
		echo "FAIL $1: $3"
		failed=$((failed + 1))
	fi
}

mkdir -p "$BUILD"
out=$BUILD/out.txt
echo "== build"
if ! $1 > "$BUILD/build.log" 2>&1; then
	tail -n 20 "$BUILD/build.log"
	one build 1 "see $BUILD/build.log (tests that built still run)"
fi

for t in $MY_TESTS $OTHER_TESTS; do
	echo "== $t"
	if [ ! -x "$BUILD/$t" ]; then
		one "$t" 1 "did not build"
		continue
	fi
	"$BUILD/$t" > "$out" 2>&1
	rc=$?
	cat "$out"
	count "$t" $rc "$out"
done

# FUZZERS: NAME:SECONDS:MAX_LEN each; FUZZ_TEST_TIME, if set, for all
for f in $FUZZERS; do
	name=fuzz_${f%%:*}
	secs=${FUZZ_TEST_TIME:-$(echo "$f" | cut -d: -f2)}
	corpus=$BUILD/corpus/${f%%:*}
	echo "== $name: $secs s, libFuzzer + ASan + UBSan"
	if [ ! -x "$BUILD/$name" ]; then
		one "$name" 1 "did not build"
		continue
	fi
	mkdir -p "$corpus"
	"$BUILD/$name" -max_total_time="$secs" -max_len="${f##*:}" \
		-print_final_stats=1 "$corpus" > "$BUILD/$name.txt" 2>&1
	rc=$?
	runs=$(sed -n 's/^Done \([0-9]*\) runs in \([0-9]*\) second.*/\1 runs in \2 s/p' \
		"$BUILD/$name.txt")
	if [ $rc -eq 0 ] && [ -n "$runs" ]; then
		one "$name" 0 "$runs, no crash"
	else
		grep -v '^    #' "$BUILD/$name.txt" | tail -n 30
		one "$name" 1 "exit $rc (see $BUILD/$name.txt)"
	fi
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
	tail -n 25 "$out"
	echo "   ($(( $(date +%s) - start )) s, exit $rc)"
	one "$name" $rc "$(tail -n 1 "$out")"
done

echo "tools: $passed passed, $failed failed"
[ $failed -eq 0 ]
