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

# The guest side: guest/80-trace-events.sh
boot smp4 --add "$(trace_on_file 64 all)" \
	--add "$GUEST_DIR/80-trace-events.sh" --cmd "sh /root/80-trace-events.sh $OFF_CPU"
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
