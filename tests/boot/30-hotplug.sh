#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# CPU hotplug through the hypervisor's PSCI relay (CPU_OFF, then CPU_ON
# into the hypervisor's own entry before Linux's): every secondary CPU goes
# offline and online again, one at a time and all together, idle and while
# every CPU runs a busy loop.
# shellcheck source=tests/boot/lib.sh
. "$(dirname "$0")/lib.sh"

ROUNDS=5

# The guest side. Each step checks what sysfs says, so a CPU that silently
# fails to come back is caught where it happens.
guest_script() {
	cat <<GUEST
set -e
cpus=/sys/devices/system/cpu
last=\$(( \$(ls -d \$cpus/cpu[0-9]* | wc -l) - 1 ))
want=\$(cat \$cpus/online)
set_cpu() { echo \$2 > \$cpus/cpu\$1/online; }
check() {
	got=\$(cat \$cpus/online)
	[ "\$got" = "\$1" ] || { echo "@error=\$2:online=\$got,want=\$1"; exit 1; }
}
cycle() {
	for r in \$(seq 1 \$1); do
		for c in \$(seq 1 \$last); do
			set_cpu \$c 0
			set_cpu \$c 1
		done
		check "\$want" "round\$r-\$2"
		# All secondaries off together, then all on.
		for c in \$(seq 1 \$last); do set_cpu \$c 0; done
		check 0 "round\$r-\$2-alloff"
		for c in \$(seq 1 \$last); do set_cpu \$c 1; done
		check "\$want" "round\$r-\$2-allon"
	done
}
cycle $ROUNDS idle
echo "@idle=done"
# One busy loop per CPU; the scheduler moves them as CPUs come and go.
load=
for c in \$(seq 0 \$last); do
	sh -c 'while :; do :; done' &
	load="\$load \$!"
done
cycle $ROUNDS busy
kill \$load
wait 2>/dev/null || true
echo "@busy=done"
echo "@online=\$(cat \$cpus/online)"
GUEST
}

# check_hotplug CASE [qemu-run.sh options]
check_hotplug() {
	local case=$1 want got
	shift
	boot "$case" "$@" --cmd "$(guest_script)"
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
