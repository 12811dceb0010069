#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Tracing on Debian's stock arm64 kernels, which have no trace_remote:
# Debian 12's 6.1 and the newest 7.x of trixie-backports. For each, in
# parallel:
# - fetch the image (scripts/fetch-stock-kernel.sh) and build hyptrace.ko
#   against the same version's stock headers package
#   (scripts/build-stock-module.sh): the module then serves the trace files
#   itself, at /sys/kernel/debug/hyptrace;
# - boot the image under the hypervisor and run the kernel's own ftrace
#   selftests for the hypervisor remote (test.d/remotes/hypervisor/, from
#   the 7.x tree in the initramfs), pointed at that directory instead of
#   remotes/hypervisor: the same behaviour, checked by the kernel's tests;
# - run the tracing and recording tests unchanged on that kernel:
#   80-trace-events (events from all CPUs, start/stop, hotplug),
#   81-trace-loss (loss accounting), 82-trace-clock (clock within bounds)
#   and 84-record (hyptrace record to trace.dat, read by stock trace-cmd).
# shellcheck source=tests/boot/lib.sh
. "$(dirname "$0")/lib.sh"

SUITES="bookworm trixie-backports"
# A guard against a hang, not a wait: the selftests take some ten minutes
# under TCG, both kernels at once; on a machine running other QEMUs beside
# the test, 900 s ended both in the fifth of the six selftests
BOOT_TIMEOUT=1500
SUBTESTS="80-trace-events 81-trace-loss 82-trace-clock 84-record"
FT_WANT=6	# test cases in test.d/remotes/hypervisor/ of the 7.x tree

# The guest side of the selftests: guest/66-stock-tracing.sh

# run_suite SUITE: everything for one kernel; the last line of its output
# is "PASS: ..." or "FAIL: ...".
run_suite() {
	local suite=$1 log=$TEST_LOGS/$TEST_NAME-$1 vmlinuz ko passed failed t
	local args=() line
	mkdir -p "$log"
	vmlinuz=$(bash "$HYPTRACE_TOP/scripts/fetch-stock-kernel.sh" "$suite" \
		2>"$log/fetch.log" | tail -n 1) || true
	[ -f "$vmlinuz" ] ||
		fail "$suite: scripts/fetch-stock-kernel.sh: $(tail -n 1 "$log/fetch.log")"
	ko=$(bash "$HYPTRACE_TOP/scripts/build-stock-module.sh" "$suite" \
		2>"$log/build.log" | tail -n 1) || true
	[ -f "$ko" ] ||
		fail "$suite: scripts/build-stock-module.sh: $(tail -n 1 "$log/build.log")"
	info "$suite: $vmlinuz, $ko"
	args=(--kernel "$vmlinuz" --modules "$ko")

	TEST_LOGS=$log
	boot ftrace "${args[@]}" --add "$GUEST_DIR/66-stock-tracing.sh" \
		--cmd "sh /root/66-stock-tracing.sh"
	expect_ok
	expect_line '^hyptrace-guest: tracing ready: /sys/kernel/debug/hyptrace' \
		"hyptrace.ko loaded, with its own files"
	[ "$(value dir)" = /sys/kernel/debug/hyptrace ] ||
		fail "$suite: trace files at '$(value dir)', want /sys/kernel/debug/hyptrace"
	passed=$(sed -n 's/^# of passed:[[:space:]]*\([0-9]*\).*/\1/p' "$BOOT_LOG" | tail -n 1)
	failed=$(grep -aE '^\[[0-9]+\].*\[(FAIL|UNRESOLVED|UNSUPPORTED|UNTESTED)' "$BOOT_LOG" |
		tr -d '\t' | tr '\n' ' ' || true)
	if [ "$passed" != "$FT_WANT" ] || [ -n "$failed" ]; then
		fail "$suite: test.d/remotes/hypervisor: ${passed:-0} of $FT_WANT passed ${failed}(log $BOOT_LOG)"
	fi
	expect_healthy

	for t in $SUBTESTS; do
		# Added to what the caller asked for (--no-hyp, say)
		line=$(HYPTRACE_TEST_LOGS=$log \
			HYPTRACE_TEST_QEMU_ARGS="${HYPTRACE_TEST_QEMU_ARGS:-} ${args[*]}" \
			bash "$HYPTRACE_TOP/tests/boot/$t.sh" 2>&1 | tee "$log/$t.out" |
			grep -E '^(PASS|FAIL): ' | tail -n 1) || true
		case $line in
		PASS:*) info "$suite: $t: ${line#PASS: }" ;;
		*) fail "$suite ($(value release)): $t: ${line:-no verdict} (output $log/$t.out)" ;;
		esac
	done
	pass "$suite $(value release): test.d/remotes/hypervisor $passed/$FT_WANT; $SUBTESTS"
}

# Both kernels at once: each boot keeps about one core busy.
pids=()
for s in $SUITES; do
	run_suite "$s" >"$TEST_LOGS/$TEST_NAME-$s.out" 2>&1 &
	pids+=($!)
done
verdicts=()
rc=0
i=0
for s in $SUITES; do
	wait "${pids[$i]}" || rc=1
	i=$((i + 1))
	sed -n 's/^  /  /p' "$TEST_LOGS/$TEST_NAME-$s.out"
	# A suite that died without a verdict still gets one here.
	line=$(grep -E '^(PASS|FAIL): ' "$TEST_LOGS/$TEST_NAME-$s.out" | tail -n 1) || true
	verdicts+=("${line:-FAIL: $s: no verdict (output $TEST_LOGS/$TEST_NAME-$s.out)}")
done
[ "$rc" = 0 ] || fail "$(printf '%s; ' "${verdicts[@]}" | sed 's/FAIL: //g')"
pass "$(printf '%s; ' "${verdicts[@]}" | sed 's/PASS: //g; s/; $//')"
