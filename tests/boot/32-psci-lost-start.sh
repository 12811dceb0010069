#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# A CPU_ON that firmware accepts but whose CPU never arrives does not lock
# that CPU out for good. hyptrace.test_lose_cpu_on=2 (boot/README.md) loses
# CPU 2's first start: firmware powers it on, and it powers itself off
# before it reads the entry Linux gave. At boot Linux waits for it, says
# "CPU2: failed to come online" and goes on with three CPUs. Then:
# - bringing CPU 2 online succeeds: the relay finds the earlier start still
#   unfinished, asks firmware (AFFINITY_INFO), hears the CPU is off, and
#   starts it again with Linux's new entry (before the fix: ALREADY_ON for
#   ever, "failed to boot: -22");
# - the hypervisor says it recovered the start, once;
# - CPU 2 then goes offline and online again as usual.
# shellcheck source=tests/boot/lib.sh
. "$(dirname "$0")/lib.sh"

CPU=2

# The guest side: guest/32-psci-lost-start.sh
boot lost --append "hyptrace.test_lose_cpu_on=$CPU" \
	--add "$GUEST_DIR/32-psci-lost-start.sh" --cmd "sh /root/32-psci-lost-start.sh $CPU"
expect_ok
# The premise: the start was lost, and Linux noticed.
expect_line "^hyptrace: CPU $CPU: hyptrace.test_lose_cpu_on: losing this CPU_ON start" \
	"the test option lost CPU $CPU's first start"
expect_line "CPU$CPU: failed to come online" "Linux saw the lost start"
[ "$(value boot_online)" = 0-1,3 ] ||
	fail "online CPUs after boot '$(value boot_online)', want 0-1,3"

expect_no_line "CPU$CPU: failed to boot" "the relay refused the new start"
[ "$(value online_rc)" = 0 ] ||
	fail "bringing CPU $CPU online failed (exit $(value online_rc))"
[ "$(value after_online)" = 0-3 ] ||
	fail "online CPUs '$(value after_online)' after bringing CPU $CPU online, want 0-3"
[ "$(count_lines "^hyptrace: CPU $CPU: the CPU_ON accepted .* never arrived")" = 1 ] ||
	fail "want one line from the hypervisor about the recovered start"
[ "$(value again)" = 0-3 ] || fail "online CPUs '$(value again)' after another cycle, want 0-3"
[ "$(count_lines "CPU$CPU: Booted secondary processor")" = 2 ] ||
	fail "CPU $CPU booted $(count_lines "CPU$CPU: Booted secondary processor") times, want 2"
expect_no_line 'hyptrace: PANIC'
expect_no_line '(WARNING:|BUG:|Oops|Kernel panic|Internal error|cut here|Call trace:)'
pass "CPU $CPU's lost start recovered through AFFINITY_INFO: online again, and hotplug works after"
