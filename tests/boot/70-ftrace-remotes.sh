#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The kernel's own ftrace selftests for trace remotes, run in the guest as a
# kernel developer would: test.d/remotes/hypervisor/ against our remote
# (hyptrace.ko, loaded at boot), and test.d/remotes/*.tc against the
# kernel's `test` remote (remote_test.ko) in the same boot, to show that the
# two remotes live side by side and that the tests themselves pass here.
# The verdict comes from ftracetest's own summary lines. One file of the
# suite is the guest's own copy, fixed where the kernel's checks too early
# (remotes/unloading.tc, see selftest_source in boot/mkinitramfs.sh).
# shellcheck source=tests/boot/lib.sh
. "$(dirname "$0")/lib.sh"

# Each suite takes about 3 minutes under TCG.
BOOT_TIMEOUT=${BOOT_TIMEOUT:-1200}

# Six test cases in each suite of the 7.x source.
WANT=6

# The guest side: guest/70-ftrace-remotes.sh (each suite's output between
# @begin=NAME and @end=NAME)

# section NAME: the console lines of suite NAME.
section() {
	sed -n "/@begin=$1\$/,/@end=$1 /p" "$BOOT_LOG"
}

# count NAME WHAT: the number on suite NAME's "# of WHAT:" summary line.
count() {
	section "$1" | sed -n "s/^# of $2:[[:space:]]*\([0-9][0-9]*\).*/\1/p" |
		tail -n 1
}

# last_steps NAME: the last shell steps of suite NAME's first failing case.
# ftracetest -v prints a failing case's log (its set -x trace) after the
# [FAIL] line; the last steps say which check failed, in the one line that
# CI shows of a failed test.
last_steps() {
	section "$1" | awk '
		/^\[[0-9]+\].*\[(FAIL|UNRESOLVED|UNDEFINED)\]/ { on = 1; next }
		on && (/^\[[0-9]+\]/ || /^# of /) { exit }
		on && /^\+/ { step[n++] = $0 }
		END { for (i = (n > 6 ? n - 6 : 0); i < n; i++) printf "%s%s", step[i], (i < n - 1 ? " | " : "") }' |
		cut -c 1-600
}

# expect_suite NAME: ftracetest ran every case of suite NAME and all passed.
expect_suite() {
	local passed failed other=0 what n
	[ -n "$(section "$1")" ] || fail "suite $1 did not run (log $BOOT_LOG)"
	passed=$(count "$1" passed)
	failed=$(count "$1" failed)
	[ -n "$passed" ] || fail "suite $1: no '# of passed' summary line (log $BOOT_LOG)"
	for what in unresolved untested unsupported xfailed 'undefined(test bug)'; do
		n=$(count "$1" "$what")
		other=$((other + ${n:-0}))
	done
	if [ "$passed" != "$WANT" ] || [ "${failed:-0}" != 0 ] || [ "$other" != 0 ]; then
		fail "suite $1: $passed passed, ${failed:-?} failed, $other other, want $WANT passed ($(section "$1" |
			grep -E '^\[[0-9]+\].*\[(FAIL|UNRESOLVED|UNSUPPORTED|UNTESTED|UNDEFINED)\]' |
			tr -d '\t' | tr '\n' ' ')last steps: $(last_steps "$1"); log $BOOT_LOG)"
	fi
	info "suite $1: $passed of $WANT passed"
}

boot smp4 --add "$GUEST_DIR/70-ftrace-remotes.sh" --cmd "sh /root/70-ftrace-remotes.sh"
expect_line '^hyptrace-guest: tracing ready: /sys/kernel/tracing/remotes/hypervisor' \
	"hyptrace.ko loaded at boot"
expect_ok
expect_no_line '@error=' "remote_test.ko did not load"
expect_suite hypervisor
expect_suite test
expect_no_line 'hyp trace clock off by' "the hypervisor clock drifted by over 1 us"
expect_no_line 'Remote reader page swap failed'
expect_healthy
pass "ftracetest test.d/remotes: hypervisor $WANT/$WANT, test $WANT/$WANT passed; worst clock error $(value clock_error_ns) ns"
