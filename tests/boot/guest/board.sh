#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The board checks' guest side (tests/boot/lib.sh, board_expect checks
# the console): tracing every event (trace-on.sh, "@tracing=off" if it
# cannot), a selftest event 700 + CPU from every CPU, HOTPLUG rounds of
# CPUs 1-3 off and on (@hotplug: how many went), 800 + CPU from every CPU;
# without SPIN, a SiP and a yielding call to firmware (fwcall_probe.ko,
# @fwcall); a write into the hypervisor's memory at POKE from CPU 1
# (hyp_poke.ko, @poke_start, @poke); with SPIN (a board without PSCI
# firmware), a write to that release address from CPU 2 (phys_probe.ko,
# @spinpoke); event 900 from CPU 2, tracing off, the trace's selftest,
# firmware/psci and host_abort lines as @T lines; last "@alive=42".
#
# usage: board.sh HOTPLUG POKE [SPIN] (with /root/trace-on.sh, see lib.sh)
hotplug=$1
poke=$2
spin=${3:-}
M=/lib/modules/hyptrace
(
	# shellcheck source=/dev/null # trace_on_script's commands (tests/boot/lib.sh)
	. /root/trace-on.sh
) || echo "@tracing=off"
D=$(hyptrace-dir)
# each_cpu BASE: selftest event BASE + CPU from every CPU
each_cpu() { for c in 0 1 2 3; do taskset -c $c sh -c "echo $((c + $1)) > $D/write_event"; done; }
each_cpu 700
n=0
for _ in $(seq "$hotplug"); do
	for c in 1 2 3; do
		echo 0 > /sys/devices/system/cpu/cpu$c/online &&
		echo 1 > /sys/devices/system/cpu/cpu$c/online && n=$((n + 1))
	done
done
echo "@hotplug=$n"
each_cpu 800
if [ -z "$spin" ]; then
	insmod $M/fwcall_probe.ko
	echo "@fwcall=$?"
fi
insmod $M/hyp_poke.ko || echo "@poke=noload"
echo "@poke_start"
taskset -c 1 sh -c "echo w $poke > /sys/kernel/debug/hyp_poke"
echo "@poke=$?"
if [ -n "$spin" ]; then
	insmod $M/phys_probe.ko || echo "@spinpoke=noload"
	taskset -c 2 sh -c "echo w $spin > /sys/kernel/debug/phys_probe"
	echo "@spinpoke=$?"
fi
taskset -c 2 sh -c "echo 900 > $D/write_event"
echo 0 > "$D/tracing_on"
# Kernel messages off the console while the trace goes out on it (dmesg
# keeps them): one that lands inside an @T line, such as the Pi's
# deferred-probe report 10 s after boot, would cut that line in two
lvl=$(cut -f1 /proc/sys/kernel/printk)
echo 1 > /proc/sys/kernel/printk
grep -a -E 'selftest id=[789]0[0-3]$|reason=(firmware|psci)|host_abort' "$D/trace" | sed "s/^/@T /"
echo "$lvl" > /proc/sys/kernel/printk
echo "@alive=$((6 * 7))"
