#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of 85-raw-pipe.sh: raw_check's own checks of CPU 1's
# trace_pipe_raw as @check lines; then trace_pipe read in the background
# while 100 selftest events go to CPU 1 and 100 to CPU 2, and raw_check
# drains CPU 1's raw file: which ids each reader got, as @tp_cpu1,
# @tp_cpu2, @raw_cpu1, @raw_cpu2 (distinct/all where it counts both),
# @drain_rc, @raw_ends lines; CPU 2's raw file opened after trace_pipe took
# it (@busy_rc), and buffer_size_kb after a reset (@after).
#
# usage: 85-raw-pipe.sh (with /root/trace-on.sh, see lib.sh; /root/raw_check,
#        /root/write_events)
# In this shell: it leaves us in the trace directory
# shellcheck source=/dev/null # trace_on_script's commands (tests/boot/lib.sh)
. /root/trace-on.sh
set +e
/root/raw_check 1 | sed "s/^/@check /"
cat trace_pipe > /tmp/tp.txt &
tp=$!
/root/write_events 1 1001 100 >/dev/null
/root/write_events 2 2001 100 >/dev/null
sleep 1
/root/raw_check drain 1 > /tmp/raw1.txt
echo "@drain_rc=$?"
sleep 1
kill $tp
cat per_cpu/cpu2/trace_pipe_raw > /dev/null 2>/tmp/busy.txt
echo "@busy_rc=$? $(cat /tmp/busy.txt)"
# ids FILE LO HI: the ids in [LO, HI] of FILE's "... id=N" or "id N" lines
ids() { sed -n "s/.*id[= ]\([0-9]*\)$/\1/p" "$1" | awk -v lo="$2" -v hi="$3" '$1 >= lo && $1 <= hi'; }
# count FILE LO HI: "distinct/all" of those ids
count() { echo "$(ids "$1" "$2" "$3" | sort -u | wc -l)/$(ids "$1" "$2" "$3" | wc -l)"; }
echo "@tp_cpu1=$(ids /tmp/tp.txt 101 1100 | wc -l)"
echo "@tp_cpu2=$(count /tmp/tp.txt 2001 2100)"
echo "@raw_cpu1=$(count /tmp/raw1.txt 1001 1100)"
echo "@raw_cpu2=$(ids /tmp/raw1.txt 2001 2100 | wc -l)"
sed -n "1p;\$p" /tmp/raw1.txt | sed "s/^/@raw_ends /"
echo 0 > tracing_on
echo 0 > trace
sed "s/^/@after /" buffer_size_kb
