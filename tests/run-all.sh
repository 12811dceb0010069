#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Run every test: the host checks (the ring-buffer, UART and tool unit
# tests, scripts/check-doc.sh on the documentation, checkpatch, no circle
# between the tool's files), then the boot tests in tests/boot/, one after
# the other (each boot already keeps the machine's cores busy), except the
# few long ones that mostly wait on the guest (LONG_TESTS below): those
# run one after the other beside the rest.
# Each test reports PASS or FAIL with a reason and its wall time; the last
# line is "N passed, N failed".
#
#   tests/run-all.sh              everything (make test runs this)
#   tests/run-all.sh 30-hotplug   only the named boot tests
#   tests/run-all.sh --no-hyp     check the boot tests themselves: boot
#                                 Linux without the hypervisor, where every
#                                 boot test must FAIL (a test that cannot fail
#                                 proves nothing); reports PASS when it does
#
# Expects a finished build (make all); it does not build by itself (but
# for the tool's objects check-circles reads, if they are out of date).
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../scripts/lib.sh"

passed=0
failed=0
invert=0
logs=$HYPTRACE_BUILD/test-logs

# Boot tests of several minutes each (ftracetest under TCG), run in a
# second lane so that a cold 'make test' stays well under CI's limit; and
# 86-stream-net, short, but timing out on its network handshakes when it
# shares the cores with lane 1's boots: after 70 it runs alone.
LONG_TESTS="66-stock-tracing 70-ftrace-remotes 86-stream-net"

# report NAME OK SECONDS REASON
report() {
	local verdict=PASS
	if [ "$2" = 1 ]; then
		passed=$((passed + 1))
	else
		verdict=FAIL
		failed=$((failed + 1))
	fi
	printf '%s  %-14s %4ss  %s\n' "$verdict" "$1" "$3" "$4"
}

# run_test NAME LOG COMMAND...: run it, report its verdict line (the last
# "PASS: "/"FAIL: " line of its output) and wall time.
run_test() {
	local name=$1 log=$2 start=$SECONDS rc=0 reason
	shift 2
	"$@" >"$log" 2>&1 || rc=$?
	# A boot test's verdict line, or else the last line of the output.
	reason=$(grep -E '^(PASS|FAIL): ' "$log" | tail -n 1 | cut -d' ' -f2- || true)
	if [ -z "$reason" ]; then
		reason=$(tail -n 1 "$log")
		[ "$rc" = 0 ] || reason="exit $rc: $reason"
	fi
	if [ "$invert" = 1 ]; then
		if [ "$rc" = 0 ]; then
			report "$name" 0 $((SECONDS - start)) "passed without the hypervisor: $reason"
		else
			report "$name" 1 $((SECONDS - start)) "fails without the hypervisor: $reason"
		fi
		return 0
	fi
	if [ "$rc" = 0 ]; then
		report "$name" 1 $((SECONDS - start)) "$reason"
	else
		report "$name" 0 $((SECONDS - start)) "$reason (output: $log)"
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
		run_test tools "$logs/tools.out" \
			make --no-print-directory -C "$HYPTRACE_TOP/tests/tools" test \
			BUILD="$HYPTRACE_BUILD/tools-tests"
		run_test check-doc "$logs/check-doc.out" \
			bash "$HYPTRACE_TOP/scripts/check-doc.sh"
		# checkpatch over the C sources: a style slip fails here, not
		# in the next engineer's review
		run_test check-style "$logs/check-style.out" \
			make --no-print-directory -C "$HYPTRACE_TOP" check-style
		# no file of tools/hyptrace calls back into one that calls it
		# (from nm of its objects; hyp/ and host-driver/ printed only)
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
		(
			for name in "${long[@]}"; do
				run_test "$name" "$logs/$name.out" \
					bash "$HYPTRACE_TOP/tests/boot/$name.sh"
			done
		) >"$lane" &
		lane_pid=$!
	fi
	for name in "${short[@]+"${short[@]}"}"; do
		run_test "$name" "$logs/$name.out" \
			bash "$HYPTRACE_TOP/tests/boot/$name.sh"
	done
	if [ -n "$lane_pid" ]; then
		wait "$lane_pid" || true
		cat "$lane"
		passed=$((passed + $(grep -c '^PASS ' "$lane" || true)))
		failed=$((failed + $(grep -c '^FAIL ' "$lane" || true)))
		# A lane that died before reporting is a failure too
		if [ "$(grep -cE '^(PASS|FAIL) ' "$lane" || true)" != ${#long[@]} ]; then
			echo "FAIL  long lane     reported $(grep -cE '^(PASS|FAIL) ' "$lane" || true) of ${#long[@]} tests (${long[*]})"
			failed=$((failed + 1))
		fi
	fi

	echo "$passed passed, $failed failed"
	[ "$failed" = 0 ]
}

main "$@"
