# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# What the host suites' runners (tests/ringbuf/run_tests.sh,
# tests/tools/run_tests.sh) share, under dash (sh): counting the KTAP
# points of a test program or script (tests/include/check.h,
# tests/include/ktap.sh) and a bounded libFuzzer run, into $passed and
# $failed, for the runner's one last line "SUITE: N passed, N failed"
# that tests/run-all.sh reads.

passed=0
failed=0

# suite_count NAME STATUS FILE: the "ok ..."/"not ok ..." lines of FILE,
# NAME's KTAP output; a program that failed without a "not ok" line, or
# that reports no test at all, counts as one failure
suite_count() {
	_p=$(grep -c '^ok ' "$3")
	_f=$(grep -c '^not ok ' "$3")
	if [ "$2" -ne 0 ] && [ "$_f" -eq 0 ]; then
		echo "not ok $1: exit status $2"
		_f=1
	elif [ $((_p + _f)) -eq 0 ]; then
		echo "not ok $1: no test reported"
		_f=1
	fi
	passed=$((passed + _p))
	failed=$((failed + _f))
	if [ "$_f" -eq 0 ]; then
		echo "PASS $1: $_p checks"
	else
		echo "FAIL $1: $_f of $((_p + _f)) checks failed"
	fi
}

# suite_fuzz BUILD NAME SECONDS MAX_LEN CORPUS: BUILD/NAME, a libFuzzer
# target, for SECONDS from the corpus BUILD/CORPUS; one KTAP point
suite_fuzz() {
	_out=$1/$2.txt
	echo "== $2: $3 s, libFuzzer + ASan + UBSan"
	if [ ! -x "$1/$2" ]; then
		echo "not ok 1 $2: did not build" >"$1/$2.ktap"
		_rc=1
	else
		mkdir -p "$1/$5"
		"$1/$2" -max_total_time="$3" -max_len="$4" \
			-print_final_stats=1 "$1/$5" >"$_out" 2>&1
		_rc=$?
		_runs=$(sed -n 's/^Done \([0-9]*\) runs in \([0-9]*\) second.*/\1 runs in \2 s/p' "$_out")
		if [ $_rc -eq 0 ] && [ -n "$_runs" ]; then
			echo "ok 1 $2: $_runs, no crash" >"$1/$2.ktap"
		else
			grep -v '^    #' "$_out" | tail -n 30
			echo "not ok 1 $2: exit $_rc (see $_out; artifacts next to $1)" \
				>"$1/$2.ktap"
			_rc=1
		fi
	fi
	cat "$1/$2.ktap"
	suite_count "$2" $_rc "$1/$2.ktap"
}
