#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# A hypervisor panic before Linux runs, on a board whose console nobody
# sees, leaves its text for the next boot. One QEMU run with --reboots 1
# (panic=1 on the command line, RAM kept across the reset) on virt with
# stdout-path naming a UART no driver claims (so that no console shows
# anything, and qemu-run.sh does not stop at the PANIC line):
#
#   first boot	hyptrace.test_panic=before-linux: the hypervisor panics
#		just before it would enter Linux and, as panic=1 asks,
#		resets instead of powering off.
#   second boot	it finds the panicked log, keeps it ("the last boot
#		panicked"), does not panic again, and Linux runs:
#		hyptrace.ko prints "previous boot's hypervisor log" into
#		dmesg with the panic line, and hyp_log_last_boot has it
#		whole (shown here without its "hyptrace: " prefixes: a
#		console line with "hyptrace: PANIC" in it stops qemu-run.sh).
#		Linux booted once.
# shellcheck source=tests/boot/lib.sh
. "$(dirname "$0")/lib.sh"

work=$(mktemp -d "${TMPDIR:-/tmp}/hyptrace-46.XXXXXX")
trap 'rm -rf "$work"' EXIT
virt_dtb none "$work/none.dtb"

# The guest side: guest/46-hyp-log-panic.sh
boot panic --dtb "$work/none.dtb" --reboots 1 \
	--append hyptrace.test_panic=before-linux \
	--add "$GUEST_DIR/46-hyp-log-panic.sh" --cmd "sh /root/46-hyp-log-panic.sh"
expect_ok
expect_no_line '^hyptrace: ' "the hypervisor printed on a console it should not have"
[ "$(count_lines 'Booting Linux on physical CPU')" = 1 ] ||
	fail "Linux booted $(count_lines 'Booting Linux on physical CPU') times, want once (after the panicked boot)"
expect_line "^@dmesg previous boot's hypervisor log \\(it ended in a hypervisor panic\\), [0-9]+ bytes:" \
	"the module found the last boot's log"
expect_line '^@dmesg hyp \(previous boot\): PANIC on CPU 0: hyptrace.test_panic=before-linux: a panic before Linux runs' \
	"the panic, in dmesg"
expect_line '^@dmesg hyp \(previous boot\): no console: ' "the rest of that boot's log"
expect_line '^@last PANIC on CPU 0: hyptrace.test_panic=before-linux' "hyp_log_last_boot, whole"
expect_line '^@this hyptrace: the last boot panicked: its log \([0-9]+ bytes\) is kept for the host' \
	"this boot's log says so"
expect_line '^@dmesg hyp: entering Linux at ' "this boot's log, in dmesg"
expect_line 'CPU: All CPU\(s\) started at EL1'
expect_no_kernel_trouble
pass "a panic before Linux, no console: its log in the next boot's dmesg and hyp_log_last_boot"
