#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Hypercall fuzzing (tests/modules/hvc_fuzz.ko): random function IDs across
# the vendor-hypervisor range and other owners, random arguments, from all
# four CPUs at once, while hyptrace.ko keeps tracing (selftest events on
# every CPU, trace_pipe draining). Two rounds in one boot:
# - FUZZ_CALLS calls that leave hyptrace.ko's buffer alone (the calls that
#   would change it go out only with arguments the ABI rejects, and must
#   answer INVALID; UNLOAD is skipped): every answer as the ABI says, x4..x17
#   preserved, and tracing goes on untouched: events written afterwards
#   are in the trace without restarting anything;
# - FUZZ_HOSTILE_CALLS calls with nothing held back (UNLOAD, RESET, ENABLE 0
#   with arguments that work), with a trace_pipe reader: the hypervisor
#   must answer as documented and the kernel must not oops or warn. Once a
#   call unloads the buffer behind hyptrace.ko, the module must notice and
#   let go: the reader ends when killed (it used to spin unkillable in
#   trace_pipe_read), and what a user does to start over (tracing_on 0,
#   clear, events on, tracing_on 1) brings tracing back on every CPU.
# In both rounds MMIO_REGION ADD of a range touching Linux's RAM, the
# hypervisor's region or the trace carve-out, with a valid size and mode,
# must answer DENIED (-10), counted as denied.
# Afterwards the hypervisor's image checksum (IMAGE_SUM) is the one taken
# before, its memory canary intact (IMAGE_SUM and at power-off), and every
# status code is counted in the @fuzz line.
#
# FUZZ_CALLS (default 100000) and FUZZ_HOSTILE_CALLS (default 20000) size
# the rounds; bench/run.sh runs it with a million. FUZZ_SEED replays a run
# (a failure names its seed); FUZZ_ROUNDS repeats the first round and its
# check that tracing goes on in the same boot, to hunt a rare failure.
# shellcheck source=tests/boot/lib.sh
. "$(dirname "$0")/lib.sh"

CALLS=${FUZZ_CALLS:-100000}
HOSTILE_CALLS=${FUZZ_HOSTILE_CALLS:-20000}
SEED=${FUZZ_SEED:-0}
ROUNDS=${FUZZ_ROUNDS:-1}
WE=$HYPTRACE_BUILD/guest/write_events
[ -x "$WE" ] || fail "write_events not built: run make"

# The guest side: guest/57-fuzz.sh

# field CALL KEY: KEY=value of a probe answer
# The guest's lines may have a kernel message run into their end: "[ ..."
field() {
	value "$1" | tr ',' '\n' | sed -n "s/^$2=//p" | sed 's/\[.*//'
}

# num KEY: the number a @KEY= line starts with
num() {
	value "$1" | grep -o '^-\{0,1\}[0-9]*'
}

# result ROUND: the module's result line of that round (hostile=0 or 1)
result() {
	grep -a -o "hvc_fuzz: result .* hostile=$1 .*" "$BOOT_LOG" | tail -n 1 |
		sed 's/\r$//'
}

# key LINE KEY
key() {
	tr ' ' '\n' <<<"$1" | sed -n "s/^$2=//p" | sed 's/\[.*//'
}

# seeds ROUND: the seeds of that round's runs (hostile=0 or 1), in order
seeds() {
	grep -a -o "hvc_fuzz: result .* hostile=$1 " "$BOOT_LOG" |
		sed 's/.* seed=\([0-9a-fx]*\) .*/\1/'
}

# check_round ROUND CALLS: the counts add up and every check held
check_round() {
	local line n=0 k
	line=$(result "$1")
	[ -n "$line" ] || fail "no hvc_fuzz result line for hostile=$1"
	# Any failure below names the seed to replay it with
	BOOT_CASE="smp4 seed $(key "$line" seed)"
	for k in ok not_supported invalid no_memory busy not_loaded again \
		 clock_step denied positive other skipped; do
		n=$((n + $(key "$line" $k)))
	done
	[ "$n" = "$2" ] || fail "hostile=$1: the status counts add up to $n, not $2 ($line)"
	[ "$(key "$line" unexpected)" = 0 ] ||
		fail "hostile=$1: answers the ABI does not allow: $(grep -a 'hvc_fuzz: unexpected' "$BOOT_LOG" | head -n 3)"
	[ "$(key "$line" clobbered)" = 0 ] || fail "hostile=$1: x4..x17 changed by a call"
	[ "$(key "$line" sum)" = same ] || fail "hostile=$1: IMAGE_SUM changed during the run"
	[ "$(key "$line" canary)" = intact ] || fail "hostile=$1: memory canary corrupted during the run"
	[ "$(key "$line" other)" = 0 ] || fail "hostile=$1: undefined status codes"
	# MMIO_REGION ADD of RAM, the hypervisor's region, the carve-out
	[ "$(key "$line" denied)" -gt 0 ] ||
		fail "hostile=$1: no MMIO_REGION refused with DENIED: the model sent none, or the hypervisor took one"
	info "hostile=$1: ${line#*result }"
}

BOOT_TIMEOUT=${BOOT_TIMEOUT:-900}
boot smp4 --add "$WE" --add "$(trace_on_file 64 all)" \
	--add "$GUEST_DIR/57-fuzz.sh" \
	--cmd "sh /root/57-fuzz.sh $CALLS $HOSTILE_CALLS $SEED $ROUNDS"
expect_ok
# Each run of the first round: its own checks, and tracing went on after
# it (the @after lines, one a run, in the order of the result lines)
mapfile -t round_seeds < <(seeds 0)
mapfile -t afters < <(grep -a -o '@after=[0-9]*' "$BOOT_LOG" | cut -d= -f2)
[ "${#round_seeds[@]}" = "$ROUNDS" ] && [ "${#afters[@]}" = "$ROUNDS" ] ||
	fail "${#round_seeds[@]} hvc_fuzz runs and ${#afters[@]} @after lines, want $ROUNDS of each"
for i in "${!afters[@]}"; do
	[ "${afters[$i]}" = 4 ] ||
		fail "after the fuzzer (run $((i + 1)) of $ROUNDS, seed ${round_seeds[$i]}: FUZZ_SEED=${round_seeds[$i]} replays it), ${afters[$i]} of 4 new selftest events in trace: tracing was disturbed"
done
mapfile -t rcs < <(grep -a -o '@fuzz_rc=[0-9]*' "$BOOT_LOG" | cut -d= -f2)
for i in "${!rcs[@]}"; do
	[ "${rcs[$i]}" = 0 ] ||
		fail "hvc_fuzz failed its own checks (run $((i + 1)), seed ${round_seeds[$i]:-?}, insmod exit ${rcs[$i]})"
done
check_round 0 "$CALLS"
check_round 1 "$HOSTILE_CALLS"
[ "$(num hostile_rc)" = 0 ] || fail "hostile hvc_fuzz failed its own checks (insmod exit $(num hostile_rc))"
[ "$(num tp_lines)" -gt 0 ] || fail "trace_pipe got no selftest events while the fuzzer ran"
[ "$(num tp_stuck)" = 0 ] ||
	fail "a trace_pipe reader of the hostile round did not end when killed"
[ "$(num recovered)" = 4 ] ||
	fail "tracing did not restart after the hostile round (steps off/clear/events/on: $(num r_off)/$(num r_clear)/$(num r_events)/$(num r_on), $(num recovered) of 4 events)"
[ "$(field sum_before ret)" = 0 ] || fail "IMAGE_SUM answered $(field sum_before ret) (ABI 1.3 has it)"
[ "$(field sum_before a1)" = "$(field sum_after a1)" ] ||
	fail "IMAGE_SUM $(field sum_before a1) before, $(field sum_after a1) after"
[ "$(field sum_after a3)" = 0x0 ] || fail "memory canary changed at $(field sum_after a3)"
expect_line 'memory canary intact' "the hypervisor's own check at power-off"
expect_no_line 'hyptrace.*(Oops|BUG|WARNING)'
expect_healthy
l0=$(result 0)
pass "$CALLS calls (ok $(key "$l0" ok), not_supported $(key "$l0" not_supported), invalid $(key "$l0" invalid), denied $(key "$l0" denied), others $(( $(key "$l0" busy) + $(key "$l0" clock_step) + $(key "$l0" positive) + $(key "$l0" no_memory) + $(key "$l0" again) + $(key "$l0" not_loaded) )), skipped $(key "$l0" skipped)) and $HOSTILE_CALLS hostile ones from 4 CPUs: answers as documented, tracing unharmed; after the hostile round the reader ended when killed and tracing restarted; image sum $(field sum_after a1) unchanged, canary intact"
