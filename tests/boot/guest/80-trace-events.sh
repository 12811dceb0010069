#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of 80-trace-events.sh: a selftest event on each CPU and
# OFF_CPU off and on again, with tracing on, then off, then on again; the
# trace's length at each step as @on, @off and @again, the first trace as
# @T lines; then how many of 20 events a reader that opens trace right
# after write_event sees, as @at_once.
#
# usage: 80-trace-events.sh OFF_CPU (with /root/trace-on.sh, see lib.sh)
off_cpu=$1
hotplug=/sys/devices/system/cpu/cpu$off_cpu/online
# In this shell: it leaves us in the trace directory, under set -e
# shellcheck source=/dev/null # trace_on_script's commands (tests/boot/lib.sh)
. /root/trace-on.sh
for c in 0 1 2 3; do taskset -c $c sh -c "echo $((c + 100)) > write_event"; done
echo 0 > "$hotplug"
echo 1 > "$hotplug"
echo 0 > tracing_on
cat trace > /tmp/on
# Off: hypercalls and hotplug leave no trace.
for c in 0 1 2 3; do taskset -c $c sh -c "echo 200 > write_event"; done
echo 0 > "$hotplug"
echo 1 > "$hotplug"
cat trace > /tmp/off
# On again: they do.
echo 1 > tracing_on
for c in 0 1 2 3; do taskset -c $c sh -c "echo 300 > write_event"; done
echo 0 > tracing_on
cat trace > /tmp/again
echo "@on=$(wc -l < /tmp/on) @off=$(wc -l < /tmp/off) @again=$(wc -l < /tmp/again)"
sed "s/^/@T /" /tmp/on
# A reader that opens trace right after write_event sees the event: the
# shell opens it within microseconds (read is a builtin), long before the
# module's 10 ms poll of the counters; only the copy at the open can show it.
# The selftest event alone: any other event since the reset would make the
# stale counters say "not empty", and the reader walks the pages anyway
echo 0 > events/enable
echo 1 > events/hypervisor/selftest/enable
echo 1 > tracing_on
seen=0
for i in $(seq 1 20); do
	echo 0 > trace
	echo $((7000 + i)) > write_event
	while read -r line; do
		case "$line" in *"selftest id=$((7000 + i))") seen=$((seen + 1)); break ;; esac
	done < trace
done
echo 0 > tracing_on
echo "@at_once=$seen"
