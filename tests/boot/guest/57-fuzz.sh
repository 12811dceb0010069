#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of 57-fuzz.sh: hvc_fuzz.ko's two rounds, CALLS calls that
# leave hyptrace.ko's buffer alone and HOSTILE_CALLS with nothing held
# back, while selftest events are written on every CPU and trace_pipe is
# read; then whether tracing went on, a user's start over after the
# hostile round, and IMAGE_SUM before and after (hvc_probe.ko), as @ lines.
#
# usage: 57-fuzz.sh CALLS HOSTILE_CALLS [SEED [ROUNDS]] (with
#        /root/trace-on.sh, see lib.sh; /root/write_events)
# SEED (0: a new one each time) replays a run: hvc_fuzz.ko's result line
# shows the seed it used. ROUNDS repeats the first round (and its check
# that tracing goes on) that many times in this one boot, an @after line
# each, to hunt a failure that comes once in many runs.
calls=$1
hostile_calls=$2
seed=${3:-0}
rounds=${4:-1}
# In this shell: it leaves us in the trace directory, under set -e until
# the set +e below
# shellcheck source=/dev/null # trace_on_script's commands (tests/boot/lib.sh)
. /root/trace-on.sh
M=/lib/modules/hyptrace
probe() { insmod $M/hvc_probe.ko "$@" && rmmod hvc_probe; dmesg | grep "hvc_probe: fid=" | tail -n 1 | sed "s/^.*hvc_probe: //; s/ /,/g"; }
# The real module keeps tracing: selftest events on every CPU at full rate,
# CPU c writing ids c * 100000000 + i; the marks written afterwards must lie
# outside all four runs (CPU 0 writes 9000..9003 itself once it has written
# 9004 events, and those may still be in the buffer: "8 of 4")
MARK=800000000
writers() {
	rm -f /tmp/stop
	wp=
	for c in 0 1 2 3; do
		(i=0; while [ ! -f /tmp/stop ]; do /root/write_events $c $((c * 100000000 + i)) 200 > /dev/null; i=$((i + 200)); done) &
		wp="$wp $!"
	done
}
# shellcheck disable=SC2086 # one PID a word
stop_writers() { touch /tmp/stop; wait $wp; }
echo "@sum_before=$(probe fid=0xc600000c)"
set +e

r=0
while [ $r -lt "$rounds" ]; do
	r=$((r + 1))
	writers
	cat trace_pipe > /tmp/tp &
	tp=$!
	insmod $M/hvc_fuzz.ko calls="$calls" seed="$seed"
	echo "@fuzz_rc=$?"
	rmmod hvc_fuzz
	# Gone before the marks: a trace_pipe reader that is still there
	# consumes them (its poll wakes it every 100 ms), and trace no
	# longer shows them ("3 of 4"); on a loaded machine it can outlive
	# the writers
	kill $tp
	wait $tp
	stop_writers
	echo "@tp_lines=$(grep -c "selftest id=" /tmp/tp)"
	# Tracing still works as it was: nothing restarted. Each round its
	# own marks, MARK + 10000 * (round - 1) + CPU
	m=$((MARK + 10000 * (r - 1)))
	for c in 0 1 2 3; do taskset -c $c sh -c "echo $((m + c)) > write_event"; done
	echo "@after=$(grep -c "selftest id=$((m / 10))[0-3]$" trace)"
done

# Hostile round, with the writers going and a reader that must stay killable
writers
cat trace_pipe > /dev/null &
tp=$!
insmod $M/hvc_fuzz.ko calls="$hostile_calls" hostile=1 seed="$seed"
echo "@hostile_rc=$?"
rmmod hvc_fuzz
kill $tp
sleep 2
# Gone, or a zombie: a reader stuck in the kernel is still running
st=$(sed -n "s/^State:[[:space:]]*\([A-Z]\).*/\1/p" /proc/$tp/status 2> /dev/null)
[ -n "$st" ] && [ "$st" != Z ] && echo "@tp_stuck=1 ($st)" || echo "@tp_stuck=0"
stop_writers
# What a user does to start over: off, empty, events on again, on (each
# bounded, so that a hang shows as a failed step)
timeout 60 sh -c "echo 0 > tracing_on"; echo "@r_off=$?"
timeout 60 sh -c "echo 0 > trace"; echo "@r_clear=$?"
timeout 60 sh -c "echo 0 > events/enable; echo 1 > events/enable"; echo "@r_events=$?"
timeout 60 sh -c "echo 1 > tracing_on"; echo "@r_on=$?"
for c in 0 1 2 3; do timeout 10 taskset -c $c sh -c "echo $((MARK + 100 + c)) > write_event"; done
echo "@recovered=$(timeout 60 cat trace | grep -c "selftest id=80000010[0-3]$")"
echo "@sum_after=$(probe fid=0xc600000c)"
