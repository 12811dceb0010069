#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Run every test: the host checks (the ring-buffer, UART and tool unit
# tests, scripts/check-doc.sh on the documentation, shellcheck on the boot
# tests' guest scripts, checkpatch, no circle between the tool's files),
# then the boot tests in tests/boot/, one after the other (each boot
# already keeps the machine's cores busy), except the few long ones that
# mostly wait on the guest (LONG_TESTS below): those run one after the
# other beside the rest.
# The output is KTAP (TAP version 13): each test one "ok N - NAME" or
# "not ok N - NAME # reason" line, after a "# PASS|FAIL NAME TIME reason"
# line for the reader; the plan "1..N" and one "# Totals:" line last,
# which counts the tests and, rolled in, the subtests of those that have
# them (the host suites' checks).
#
#   tests/run-all.sh              everything (make test runs this)
#   tests/run-all.sh 30-hotplug   only the named boot tests
#   tests/run-all.sh --no-hyp     check the boot tests themselves: boot
#                                 Linux without the hypervisor, where every
#                                 boot test must FAIL (a test that cannot fail
#                                 proves nothing); reports PASS when it does
#
# Expects a finished build (make all); it does not build by itself (but
# for the objects check-circles reads: it builds them from the sources).
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"

passed=0
failed=0
sub_passed=0
sub_failed=0
tests=0
invert=0
logs=$HYPTRACE_BUILD/test-logs

# Boot tests of several minutes each (ftracetest under TCG), run in a
# second lane so that a cold 'make test' stays well under CI's limit; and
# 86-stream-net, short, but timing out on its network handshakes when it
# shares the cores with lane 1's boots: after 70 it runs alone.
LONG_TESTS="66-stock-tracing 70-ftrace-remotes 86-stream-net"

# subtests LOG OK: "PASSED FAILED", the subtests a test's output reports:
# a host suite's last "N passed, N failed", or else its KTAP points (its
# programs' "ok"/"not ok" lines); a test without subtests counts as one.
subtests() {
	local line p f
	line=$(grep -aE '[0-9]+ passed, [0-9]+ failed$' "$1" | tail -n 1 || true)
	if [ -n "$line" ]; then
		p=$(sed -E 's/.* ([0-9]+) passed, ([0-9]+) failed$/\1/' <<<"$line")
		f=$(sed -E 's/.* ([0-9]+) passed, ([0-9]+) failed$/\2/' <<<"$line")
	else
		p=$(grep -ac '^ok ' "$1" || true)
		f=$(grep -ac '^not ok ' "$1" || true)
	fi
	if [ $((p + f)) = 0 ]; then
		if [ "$2" = 1 ]; then p=1; else f=1; fi
	fi
	# a failed test has at least one failed subtest
	[ "$2" = 1 ] || [ "$f" != 0 ] || f=1
	echo "$p $f"
}

# report NAME OK SECONDS REASON [LOG]: the test's KTAP line, after the
# human one
report() {
	local verdict=PASS sp=1 sf=0
	[ -z "${5:-}" ] || read -r sp sf < <(subtests "$5" "$2")
	[ "$2" = 1 ] || { verdict=FAIL; [ -n "${5:-}" ] || { sp=0; sf=1; }; }
	tests=$((tests + 1))
	sub_passed=$((sub_passed + sp))
	sub_failed=$((sub_failed + sf))
	printf '# %s  %-14s %4ss  %s\n' "$verdict" "$1" "$3" "$4"
	if [ "$2" = 1 ]; then
		passed=$((passed + 1))
		echo "ok $tests - $1"
	else
		failed=$((failed + 1))
		echo "not ok $tests - $1 # ${4//$'\n'/ }"
	fi
}

# run_test NAME LOG COMMAND...: run it, report its verdict (the last
# "PASS: "/"FAIL: " line of its output, or else its last line) and wall
# time. With $lane_out set (the long lane), the verdict goes there as one
# "NAME|OK|SECONDS|REASON|LOG" record, reported when the lane is done.
lane_out=
run_test() {
	local name=$1 log=$2 start=$SECONDS rc=0 reason ok
	shift 2
	"$@" >"$log" 2>&1 || rc=$?
	# A boot test's verdict line, or else the last line of the output.
	reason=$(grep -aE '^(PASS|FAIL): ' "$log" | tail -n 1 | cut -d' ' -f2- || true)
	if [ -z "$reason" ]; then
		reason=$(tail -n 1 "$log")
		[ "$rc" = 0 ] || reason="exit $rc: $reason"
	fi
	if [ "$invert" = 1 ]; then
		if [ "$rc" = 0 ]; then
			ok=0 reason="passed without the hypervisor: $reason"
		else
			ok=1 reason="fails without the hypervisor: $reason"
		fi
		log=
	elif [ "$rc" = 0 ]; then
		ok=1
	else
		ok=0 reason="$reason (output: $log)"
	fi
	if [ -n "$lane_out" ]; then
		echo "$name|$ok|$((SECONDS - start))|${reason//|//}|$log" >>"$lane_out"
	else
		report "$name" "$ok" $((SECONDS - start)) "$reason" "$log"
	fi
}

# The boot tests need what 'make all' builds.
check_built() {
	local f missing=
	for f in "$HYPTRACE_BUILD/kernel.env" "$HYPTRACE_BUILD/initramfs.cpio.gz"; do
		[ -f "$f" ] || missing+=" $f"
	done
	[ "$invert" = 1 ] || [ -f "$HYPTRACE_BUILD/hyp/hyptrace.bin" ] ||
		missing+=" $HYPTRACE_BUILD/hyp/hyptrace.bin"
	[ -z "$missing" ] || die "not built:$missing (run 'make all' or 'make test')"
}

main() {
	local only=() t name
	while [ $# -gt 0 ]; do
		case $1 in
		--no-hyp) invert=1 ;;
		-h|--help) sed -n '4,18s/^# \{0,1\}//p' "$0"; exit 0 ;;
		-*) die "unknown option $1" ;;
		*) only+=("$1") ;;
		esac
		shift
	done
	mkdir -p "$logs"
	check_built
	echo "TAP version 13"

	if [ "$invert" = 0 ] && [ ${#only[@]} = 0 ] &&
	   [ -f "$HYPTRACE_TOP/tests/ringbuf/Makefile" ]; then
		# make deb, lintian, the tool from a scratch root, DKMS
		# against the stock 6.1 headers (tests/packaging/deb.sh)
		run_test packaging "$logs/packaging.out" \
			bash "$HYPTRACE_TOP/tests/packaging/deb.sh"
		run_test ringbuf "$logs/ringbuf.out" \
			make --no-print-directory -C "$HYPTRACE_TOP/tests/ringbuf" test \
			BUILD="$HYPTRACE_BUILD/ringbuf"
		run_test uart "$logs/uart.out" \
			make --no-print-directory -C "$HYPTRACE_TOP/tests/uart" test \
			BUILD="$HYPTRACE_BUILD/uart"
		run_test mem "$logs/mem.out" \
			make --no-print-directory -C "$HYPTRACE_TOP/tests/mem" test \
			BUILD="$HYPTRACE_BUILD/mem"
		run_test fw "$logs/fw.out" \
			make --no-print-directory -C "$HYPTRACE_TOP/tests/fw" test \
			BUILD="$HYPTRACE_BUILD/fw"
		run_test dt "$logs/dt.out" \
			make --no-print-directory -C "$HYPTRACE_TOP/tests/dt" test \
			BUILD="$HYPTRACE_BUILD/dt"
		run_test tools "$logs/tools.out" \
			make --no-print-directory -C "$HYPTRACE_TOP/tests/tools" test \
			BUILD="$HYPTRACE_BUILD/tools-tests"
		run_test check-doc "$logs/check-doc.out" \
			bash "$HYPTRACE_TOP/scripts/check-doc.sh"
		# the boot tests' guest scripts, as busybox sh runs them
		if command -v shellcheck >/dev/null; then
			# shellcheck disable=SC2016 # expands in bash -c
			run_test shellcheck "$logs/shellcheck.out" bash -c \
				'if shellcheck -s sh "$@"; then echo "PASS: $# guest scripts"
				 else echo "FAIL: shellcheck on the guest scripts"; exit 1; fi' \
				_ "$HYPTRACE_TOP"/tests/boot/guest/*.sh
		else
			echo "ok $((tests += 1)) - shellcheck # SKIP not installed (scripts/setup-deps.sh installs it)"
			passed=$((passed + 1))
		fi
		# checkpatch over the C sources: a style slip fails here, not
		# in the next engineer's review
		run_test check-style "$logs/check-style.out" \
			make --no-print-directory -C "$HYPTRACE_TOP" check-style
		# no file of tools/hyptrace, hyp/ or host-driver/ (either
		# front end) calls back into one that calls it (from nm of
		# the objects it builds from the sources)
		run_test check-circles "$logs/check-circles.out" \
			sh "$HYPTRACE_TOP/scripts/check-circles.sh" "$HYPTRACE_BUILD"
	fi

	if [ "$invert" = 1 ]; then
		export HYPTRACE_TEST_QEMU_ARGS="--no-hyp ${HYPTRACE_TEST_QEMU_ARGS:-}"
	fi
	local long=() short=() lane=$logs/long-lane.txt lane_pid=
	for t in "$HYPTRACE_TOP"/tests/boot/[0-9]*.sh; do
		name=$(basename "$t" .sh)
		if [ ${#only[@]} -gt 0 ] && [[ " ${only[*]} " != *" $name "* ]]; then
			continue
		fi
		if [[ " $LONG_TESTS " == *" $name "* ]]; then
			long+=("$name")
		else
			short+=("$name")
		fi
	done

	# The long lane reports into a file, read back when both are done
	if [ ${#long[@]} -gt 0 ]; then
		: >"$lane"
		(
			lane_out=$lane
			for name in "${long[@]}"; do
				run_test "$name" "$logs/$name.out" \
					bash "$HYPTRACE_TOP/tests/boot/$name.sh"
			done
		) &
		lane_pid=$!
	fi
	for name in "${short[@]+"${short[@]}"}"; do
		run_test "$name" "$logs/$name.out" \
			bash "$HYPTRACE_TOP/tests/boot/$name.sh"
	done
	if [ -n "$lane_pid" ]; then
		wait "$lane_pid" || true
		local n=0 ok secs reason log
		while IFS='|' read -r name ok secs reason log; do
			report "$name" "$ok" "$secs" "$reason" "$log"
			n=$((n + 1))
		done <"$lane"
		# A lane that died before reporting is a failure too
		[ "$n" = ${#long[@]} ] ||
			report "long-lane" 0 0 "reported $n of ${#long[@]} tests (${long[*]})"
	fi

	echo "1..$tests"
	echo "# Totals: pass:$sub_passed fail:$sub_failed, the host suites' subtests counted in; tests: $passed passed, $failed failed"
	[ "$failed" = 0 ]
}

main "$@"
