#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# CPU hotplug through the hypervisor's PSCI relay (CPU_OFF, then CPU_ON
# into the hypervisor's own entry before Linux's): every secondary CPU goes
# offline and online again, one at a time and all together, idle and while
# every CPU runs a busy loop.
# shellcheck source=tests/boot/lib.sh
. "$(dirname "$0")/lib.sh"

# The guest side: guest/30-hotplug.sh, ROUNDS rounds idle and busy
ROUNDS=5
# Unloaded, a boot takes 15-45 s (cpu max twice cortex-a57's time); on a
# machine of 2 cores at load 20, cpu max had not finished unpacking the
# initramfs after 200 s (RCU stall warnings, no hang) when a 300 s limit
# on the whole boot ended it. Linux prints a line for every CPU_OFF and
# CPU_ON: 5 minutes without one is a hang; the whole boot may take an hour.
BOOT_TIMEOUT=${BOOT_TIMEOUT:-3600}
BOOT_IDLE_TIMEOUT=${BOOT_IDLE_TIMEOUT:-300}

# check_hotplug CASE [qemu-run.sh options]
check_hotplug() {
	local case=$1 want got
	shift
	boot "$case" "$@" --add "$GUEST_DIR/30-hotplug.sh" \
		--cmd "sh /root/30-hotplug.sh $ROUNDS"
	[ -z "$(value error)" ] || fail "in the guest: $(value error)"
	expect_ok
	[ "$(value idle)" = "done" ] || fail "the idle rounds did not finish"
	[ "$(value busy)" = "done" ] || fail "the busy rounds did not finish"
	[ "$(value online)" = 0-3 ] || fail "online CPUs '$(value online)' at the end, want 0-3"
	# Per round and secondary CPU: one cycle alone and one with all
	# secondaries together, idle and busy. Each CPU_OFF must be seen to
	# complete (AFFINITY_INFO says OFF), each CPU_ON must boot Linux.
	want=$((2 * ROUNDS * 3 * 2))
	got=$(count_lines 'psci: CPU[1-3] killed')
	[ "$got" = "$want" ] || fail "$got 'psci: CPUn killed' lines, want $want"
	got=$(count_lines 'CPU[1-3]: Booted secondary processor')
	[ "$got" = $((want + 3)) ] ||
		fail "$got 'Booted secondary processor' lines, want $((want + 3)) (3 at boot)"
	expect_healthy
	CYCLES=$want
}

check_hotplug default
check_hotplug cpu-max --cpu max
pass "$CYCLES CPU_OFF/CPU_ON cycles on CPUs 1-3, idle and busy, on cortex-a57 and max; all online at the end"
