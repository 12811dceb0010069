#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of 80-trace-events.sh: a selftest event on each CPU and
# OFF_CPU off and on again, with tracing on, then off, then on again; the
# trace's length at each step as @on, @off and @again, the first trace as
# @T lines; then how many of 20 events a reader that opens trace right
# after write_event sees, as @at_once; then the kernel test.d shapes after a
# trace_pipe read and a reset, as @after_reset and @after_laps.
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
# The shape of the kernel's own test.d/remotes/trace.tc on a buffer of two
# ring pages (7 KiB): events on a CPU, consumed through trace_pipe, a
# reset, events on that CPU again. The kernel's swap leaves its HEAD flag
# on the page given back, and trace started there (see RB_STAMP_BEHIND).
echo 0 > trace
echo 7 > buffer_size_kb
echo 1 > tracing_on
for v in 1 2 3; do taskset -c 1 sh -c "echo $((8000 + v)) > write_event"; done
head -n 3 trace_pipe > /dev/null
echo 0 > trace
for v in 4 5; do taskset -c 1 sh -c "echo $((8000 + v)) > write_event"; done
echo "@after_reset=$(grep -c "selftest id=800[45]" trace || :)"
# The same after the writer overwrote its way round a buffer of four ring
# pages (13 KiB), 2 to 9 pages of events on, trace read at each: once the
# head has moved, the page given back is no longer just before it.
laps=
for L in 2 3 4 5 6 7 8 9; do
	echo 0 > tracing_on
	echo 0 > trace
	echo 13 > buffer_size_kb
	echo 1 > tracing_on
	# shellcheck disable=SC2016 # expands in the inner shell
	taskset -c 1 sh -c 'for v in 1 2 3; do echo $v > write_event; done'
	head -n 3 trace_pipe > /dev/null
	p=0
	while [ $p -lt $L ]; do
		# shellcheck disable=SC2016 # expands in the inner shell
		taskset -c 1 sh -c 'for v in $(seq 1 170); do echo $v > write_event; done'
		wc -l < trace > /dev/null
		p=$((p + 1))
	done
	echo 0 > trace
	taskset -c 1 sh -c "echo 9001 > write_event; echo 9002 > write_event"
	laps="$laps$(grep -c "id=900[12]" trace || :)"
done
echo "@after_laps=$laps"
echo 0 > tracing_on
