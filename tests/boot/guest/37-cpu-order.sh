#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of 37-cpu-order.sh: which /cpus node each Linux CPU is, a
# selftest event written on each CPU, HOTPLUG_CPU offline and online, then
# the trace, that CPU's reset and each CPU's consuming read.
#
# usage: 37-cpu-order.sh HOTPLUG_CPU (with /root/trace-on.sh, see lib.sh)
hp=$1
cpus=/sys/devices/system/cpu
for c in 0 1 2 3; do
	echo "@of$c=$(basename "$(readlink $cpus/cpu$c/of_node)")"
done
# shellcheck source=/dev/null # trace_on_script's commands (tests/boot/lib.sh)
. /root/trace-on.sh
for c in 0 1 2 3; do taskset -c $c sh -c "echo $((c + 100)) > write_event"; done
echo 0 > "$cpus/cpu$hp/online"
echo 1 > "$cpus/cpu$hp/online"
echo 0 > tracing_on
cat trace > /tmp/before
sed "s/^/@T /" /tmp/before
# Reset one CPU: only its events go.
echo > "per_cpu/cpu$hp/trace"
cat trace > /tmp/after
sed "s/^/@R /" /tmp/after
echo "@reset_cpu_lines=$(grep -c "^\[" "per_cpu/cpu$hp/trace" || true)"
# Consuming reads, a reader-page swap per CPU, of fresh events.
echo 1 > tracing_on
for c in 0 1 2 3; do taskset -c $c sh -c "echo $((c + 200)) > write_event"; done
echo 0 > tracing_on
for c in 0 1 2 3; do
	cat per_cpu/cpu$c/trace_pipe > /tmp/pipe$c &
	echo $! >> /tmp/pids
done
sleep 3
# shellcheck disable=SC2046 # one PID a word
kill $(cat /tmp/pids)
for c in 0 1 2 3; do
	echo "@pipe$c=$(sed -n "s/.*selftest id=\([0-9]*\).*/\1/p" /tmp/pipe$c | sort -n | tr "\n" ,)"
done
