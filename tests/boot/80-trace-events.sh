#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# What a user sees in remotes/hypervisor/trace with every event on:
# - every CPU shows hyp_enter/hyp_exit pairs for its own hypercalls, with
#   the reason and the SMCCC function ID, and its own selftest event;
# - CPU hotplug shows the PSCI relay at work on the right CPUs: CPU_OFF
#   entering from Linux and leaving for firmware on the CPU that goes off,
#   CPU_ON from the caller, and the new CPU's own entry through PSCI;
# - per CPU, entries and exits alternate (nothing lost, nothing doubled);
# - tracing_on 0 stops every hypervisor event, 1 resumes;
# - trace opened right after write_event shows the event (the module
#   copies the counters when trace opens, not at each write);
# - trace shows the events written after trace_pipe read a CPU's and the
#   buffer was reset, on a buffer of two ring pages, and of four after
#   the writer overwrote its way round.
# shellcheck source=tests/boot/lib.sh
. "$(dirname "$0")/lib.sh"

OFF_CPU=2

# shellcheck disable=SC2016 # expands in the guest
GUEST=$(trace_on_script 64 all)'
for c in 0 1 2 3; do taskset -c $c sh -c "echo $((c + 100)) > write_event"; done
echo 0 > /sys/devices/system/cpu/cpu'$OFF_CPU'/online
echo 1 > /sys/devices/system/cpu/cpu'$OFF_CPU'/online
echo 0 > tracing_on
cat trace > /tmp/on
# Off: hypercalls and hotplug leave no trace.
for c in 0 1 2 3; do taskset -c $c sh -c "echo 200 > write_event"; done
echo 0 > /sys/devices/system/cpu/cpu'$OFF_CPU'/online
echo 1 > /sys/devices/system/cpu/cpu'$OFF_CPU'/online
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
# module'"'"'s 10 ms poll of the counters; only the copy at the open can show it.
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
# The shape of the kernel'"'"'s own test.d/remotes/trace.tc on a buffer of two
# ring pages (7 KiB): events on a CPU, consumed through trace_pipe, a
# reset, events on that CPU again. The kernel'"'"'s swap leaves its HEAD flag
# on the page given back, and trace started there (see RB_STAMP_BEHIND).
echo 0 > trace
echo 7 > buffer_size_kb
echo 1 > tracing_on
for v in 1 2 3; do taskset -c 1 sh -c "echo $((8000 + v)) > write_event"; done
head -n 3 trace_pipe > /dev/null
echo 0 > trace
for v in 4 5; do taskset -c 1 sh -c "echo $((8000 + v)) > write_event"; done
echo "@after_reset=$(grep -c "selftest id=800[45]" trace)"
# The same after the writer overwrote its way round a buffer of four ring
# pages (13 KiB), 2 to 9 pages of events on, trace read at each: once the
# head has moved, the page given back is no longer just before it.
laps=
for L in 2 3 4 5 6 7 8 9; do
	echo 0 > tracing_on
	echo 0 > trace
	echo 13 > buffer_size_kb
	echo 1 > tracing_on
	taskset -c 1 sh -c "for v in 1 2 3; do echo \$v > write_event; done"
	head -n 3 trace_pipe > /dev/null
	p=0
	while [ $p -lt $L ]; do
		taskset -c 1 sh -c "for v in \$(seq 1 170); do echo \$v > write_event; done"
		wc -l < trace > /dev/null
		p=$((p + 1))
	done
	echo 0 > trace
	taskset -c 1 sh -c "echo 9001 > write_event; echo 9002 > write_event"
	laps="$laps$(grep -c "id=900[12]" trace || :)"
done
echo "@after_laps=$laps"
echo 0 > tracing_on
'

boot smp4 --cmd "$GUEST"
expect_ok

on=$(value on)
off=$(value off)
again=$(value again)
[ "${on:-0}" -gt 0 ] || fail "no events in trace with tracing on"
[ "$off" = "$on" ] || fail "tracing_on 0: trace went from $on to $off lines"
[ "${again:-0}" -gt "$off" ] || fail "tracing_on 1 again: still $again lines"
[ "$(value at_once)" = 20 ] ||
	fail "trace opened right after write_event showed $(value at_once) of 20 events (counters not copied at the open)"
[ "$(value after_reset)" = 2 ] ||
	fail "trace showed $(value after_reset) of 2 events written after trace_pipe and a reset (7 KiB buffer)"
[ "$(value after_laps)" = 22222222 ] ||
	fail "after trace_pipe, 2 to 9 pages overwritten and a reset, trace showed $(value after_laps) (digit L-1: of 2 events, 13 KiB buffer)"

trace=$(grep -a '^@T ' "$BOOT_LOG" | sed 's/^@T //; s/\r$//')
[ -n "$trace" ] || fail "the trace did not reach the console"

# cpu_events CPU: that CPU's events, "name args", in order
cpu_events() {
	grep -a "^\[$(printf '%03d' "$1")\]" <<<"$trace" | sed 's/^[^:]*: //'
}
has() {	# has CPU 'line prefix' what
	# not a pipe into grep -q: under pipefail the writer's SIGPIPE after
	# an early match would fail it
	grep -q -- "^$2" <<<"$(cpu_events "$1")" || fail "CPU $1: no '$2' ($3)"
}

HVC_WRITE=0xc6000009
CPU_OFF=0x84000002
CPU_ON=0xc4000003
for c in 0 1 2 3; do
	has "$c" "hyp_enter reason=hvc func_id=$HVC_WRITE" "write_event's hypercall"
	has "$c" "selftest id=$((c + 100))" "the selftest event of a write pinned there"
	has "$c" "hyp_exit reason=hvc func_id=$HVC_WRITE ret=0" "the return from it"
	# Entries and exits alternate, but for the exit of the call that
	# enabled tracing and the entry of the one that disabled it.
	seq=$(cpu_events "$c" | grep -o '^hyp_[a-z]*' | tr '\n' ' ')
	seq=${seq#hyp_exit }
	seq=${seq% }
	seq=${seq% hyp_enter}
	bad=$(sed 's/hyp_enter hyp_exit//g; s/ //g' <<<"$seq")
	[ -z "$bad" ] || fail "CPU $c: entries and exits do not alternate: $seq"
done
has "$OFF_CPU" "hyp_enter reason=smc func_id=$CPU_OFF" "Linux's CPU_OFF"
has "$OFF_CPU" "hyp_exit reason=firmware func_id=$CPU_OFF" "CPU_OFF relayed to firmware"
has "$OFF_CPU" "hyp_enter reason=psci func_id=$CPU_ON" "the CPU's entry after CPU_ON"
has "$OFF_CPU" "hyp_exit reason=psci func_id=$CPU_ON ret=0" "the CPU's first return to Linux"
caller=$(grep -a "hyp_enter reason=smc func_id=$CPU_ON" <<<"$trace" | head -n 1 |
	 sed 's/^\[\([0-9]*\)\].*/\1/')
[ -n "$caller" ] || fail "no CPU_ON from the CPU that onlined CPU $OFF_CPU"
caller=$((10#$caller))
[ "$caller" != "$OFF_CPU" ] || fail "CPU_ON issued by the CPU it woke"
has "$caller" "hyp_exit reason=firmware func_id=$CPU_ON" "CPU_ON relayed to firmware"
has "$caller" "hyp_exit reason=smc func_id=$CPU_ON ret=0" "CPU_ON's success"

expect_healthy
pass "$on events on 4 CPUs, reasons and IDs right, hotplug on CPUs $OFF_CPU and $caller; tracing_on 0 froze it at $off lines, 1 went on to $again; trace opened at once after write_event showed 20 of 20, and 2 of 2 after trace_pipe and a reset (also after 2-9 pages overwritten)"
