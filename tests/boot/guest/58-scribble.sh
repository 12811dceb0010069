#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of 58-scribble.sh: IMAGE_SUM (hvc_probe.ko) as
# @sum_before; round a, carveout_scribble.ko on the descriptor, meta and
# data pages (targets=7) for SECONDS while hyptrace.ko's raw files and
# stats read every CPU (@a_rc, @stats_reads); a user's start over
# (restart: @a_off, @a_clear, @a_events, @a_on, @a_recovered); round b, on
# the descriptor and meta pages (targets=3) while trace_pipe and trace
# read (@b_rc, @b_tp_stuck), its start over (@b_...); IMAGE_SUM again as
# @sum_after. PARAM... go to carveout_scribble.ko in both rounds.
#
# usage: 58-scribble.sh SECONDS [PARAM...] (with /root/trace-on.sh, see
#        lib.sh)
seconds=$1
shift
# In this shell: it leaves us in the trace directory, under set -e until
# the set +e below
# shellcheck source=/dev/null # trace_on_script's commands (tests/boot/lib.sh)
. /root/trace-on.sh
M=/lib/modules/hyptrace
probe() { insmod $M/hvc_probe.ko "$@" && rmmod hvc_probe; dmesg | grep "hvc_probe: fid=" | tail -n 1 | sed "s/^.*hvc_probe: //; s/ /,/g"; }
# put KEY FILE VALUE: VALUE written to FILE, the write's status as @KEY
put() {
	echo "$3" > "$2" && rc=0 || rc=$?
	echo "@$1=$rc"
}
# What a user does to start over: off, empty, events on again, on
restart() {
	put "$1_off" tracing_on 0
	put "$1_clear" trace 0
	echo 0 > events/enable; put "$1_events" events/enable 1
	put "$1_on" tracing_on 1
	for c in 0 1 2 3; do taskset -c $c sh -c "echo $(($2 + c)) > write_event"; done
	echo "@$1_recovered=$(grep -c "selftest id=$(($2 / 10))[0-3]$" trace)"
}
echo "@sum_before=$(probe fid=0xc600000c)"
set +e
rm -f /tmp/stop
# hyptrace.ko reads every CPU through its raw files, and its stats
for c in 0 1 2 3; do cat per_cpu/cpu$c/trace_pipe_raw > /dev/null 2>&1 & done
(n=0; while [ ! -f /tmp/stop ]; do for c in 0 1 2 3; do cat per_cpu/cpu$c/stats > /dev/null 2>&1; done; n=$((n + 1)); done; echo "@stats_reads=$n") &
insmod $M/carveout_scribble.ko seconds="$seconds" targets=7 "$@"
echo "@a_rc=$?"
rmmod carveout_scribble
touch /tmp/stop
# shellcheck disable=SC2046 # one argument per job
kill $(jobs -p) 2>/dev/null
wait
restart a 9100
# Round b: trace_remote reads, through the shadow meta pages
rm -f /tmp/stop
cat trace_pipe > /dev/null 2>&1 &
tp=$!
(while [ ! -f /tmp/stop ]; do cat trace > /dev/null 2>&1; done) &
tl=$!
insmod $M/carveout_scribble.ko seconds="$seconds" targets=3 "$@"
echo "@b_rc=$?"
rmmod carveout_scribble
touch /tmp/stop
kill $tp
sleep 2
# Gone, or a zombie: a reader stuck in the kernel is still running
st=$(sed -n "s/^State:[[:space:]]*\([A-Z]\).*/\1/p" /proc/$tp/status 2> /dev/null)
if [ -n "$st" ] && [ "$st" != Z ]; then echo "@b_tp_stuck=1 ($st)"; else echo "@b_tp_stuck=0"; fi
wait $tl
restart b 9200
echo "@sum_after=$(probe fid=0xc600000c)"
