#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of 65-own-kernel.sh: first the interrupt controller Linux
# drives, the device tree's compatible ("arm,cortex-a15-gic" for a GICv2,
# "arm,gic-v3") as @intc and the irq chip name in /proc/interrupts
# ("GIC-0" for a GICv2, "GICv3") as @irqchip. Then, for "hotplug" (a stock
# kernel): the release (@release), each secondary CPU off and on again
# alone, then all of them together, sysfs checked after each step (@error
# if it is wrong), @online at the end; for "trace" (the project's kernel):
# a selftest event (id 7) with every event on, the trace as @T lines and
# the release.
#
# usage: 65-own-kernel.sh hotplug|trace (trace: with /root/trace-on.sh,
#        see lib.sh)
echo "@intc=$(cat /sys/firmware/devicetree/base/intc@*/compatible | tr "\0" "\n" | head -n 1)"
echo "@irqchip=$(grep -o -m1 "GIC[^ ]*" /proc/interrupts)"
if [ "$1" = trace ]; then
	# In this shell: it leaves us in the trace directory, under set -e
	# shellcheck source=/dev/null # trace_on_script's commands (tests/boot/lib.sh)
	. /root/trace-on.sh
	echo 7 > write_event
	echo 0 > tracing_on
	sed "s/^/@T /" trace
	echo "@release=$(uname -r)"
	exit 0
fi
cpus=/sys/devices/system/cpu
echo "@release=$(uname -r)"
check() {
	got=$(cat $cpus/online)
	[ "$got" = "$1" ] || { echo "@error=$2:online=$got,want=$1"; exit 1; }
}
check 0-3 boot
for c in 1 2 3; do
	echo 0 > $cpus/cpu$c/online
	echo 1 > $cpus/cpu$c/online
	check 0-3 cpu$c
done
for c in 1 2 3; do echo 0 > $cpus/cpu$c/online; done
check 0 all-off
for c in 1 2 3; do echo 1 > $cpus/cpu$c/online; done
check 0-3 all-on
echo "@online=$(cat $cpus/online)"
