#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Stage 2 keeps Linux out of the hypervisor's memory, and the hypervisor
# survives the attempt:
# - hyp_poke.ko maps the hypervisor's region (its /reserved-memory node)
#   and, each from its own CPU, writes the EL2 vector for synchronous
#   exceptions from EL1 (CPU 1: the store that would give EL1 code
#   execution at EL2), reads the Image header (CPU 2) and writes the
#   private memory where stacks and page tables live (CPU 3);
# - Linux reports each as "Internal error: synchronous external abort" with
#   the syndrome of a data abort at EL1 (EC 0x25, IL, WnR for the writes,
#   fault status 0x10) and the probe's pc, kills the writer and runs on;
# - the hypervisor says so once on its console (one line per exception
#   class), and its trace shows each as hyp_enter/hyp_exit reason=trap
#   with EC 0x24 around a host_abort event naming the IPA and the VA;
# - afterwards every CPU's hypercalls still work (write_event on each CPU
#   reaches the trace) and at SYSTEM_OFF the hypervisor's free memory
#   carries its canary unchanged.
# shellcheck source=tests/boot/lib.sh
. "$(dirname "$0")/lib.sh"

POKE=/sys/kernel/debug/hyp_poke
VECTOR=0x1400	# hyp_vectors + 0x400: lower EL, AArch64, synchronous
PRIVATE=0x100000	# inside the region, past the image: stacks and tables

# The guest side: guest/44-stage2.sh
boot smp4 --add "$(trace_on_file 64 hyp_enter hyp_exit host_abort selftest)" \
	--add "$GUEST_DIR/44-stage2.sh" \
	--cmd "sh /root/44-stage2.sh $POKE $VECTOR $PRIVATE"
expect_ok
[ "$(value alive)" = 42 ] || fail "the guest ran no command after the probes"

base=$(grep -a -o 'hyp_poke: the hypervisor.s region is 0x[0-9a-f]*' "$BOOT_LOG" |
	head -n 1 | sed 's/.* //')
[ -n "$base" ] || fail "hyp_poke found no hypervisor region"

for c in 1 2 3; do
	[ "$(value "poke$c")" = 139 ] ||
		fail "the access on CPU $c ended with status '$(value "poke$c")', want 139 (killed by the abort): $(grep -a -m1 'hyp_poke: CPU '"$c"': \(wrote\|read\) ' "$BOOT_LOG")"
done
expect_no_line 'the hypervisor.s memory is (writable|readable)'

# Linux: a synchronous external abort at EL1, writes with WnR, at the probe
for esr in 0000000096000050 0000000096000010; do
	want=$([ "$esr" = 0000000096000050 ] && echo 2 || echo 1)
	n=$(count_lines "Internal error: synchronous external abort: $esr ")
	[ "$n" = "$want" ] ||
		fail "$n 'synchronous external abort: $esr' reports, want $want"
done
n=$(count_lines '^\[ *[0-9.]+\] pc : hyp_poke_write\+')
[ "$n" = 3 ] || fail "$n abort reports with pc in hyp_poke_write, want 3"
expect_no_line 'Kernel panic'

# The hypervisor: one console line for the data-abort class
n=$(count_lines '^hyptrace: CPU [123]: EL1 at 0x[0-9a-f]+ (wrote|read) IPA 0x[0-9a-f]+ \(VA 0x[0-9a-f]+\), which stage 2 keeps from the host')
[ "$n" = 1 ] || fail "$n hypervisor console lines for the aborts, want exactly 1"
expect_no_line 'hyptrace: PANIC'

# The trace: per CPU, enter, host_abort at the address poked, exit
trace=$(grep -a '^@T ' "$BOOT_LOG" | sed 's/^@T //; s/\r$//')
for probe in "1 $VECTOR" "2 0x0" "3 $PRIVATE"; do
	read -r c off <<<"$probe"
	cpu=$(printf '%03d' "$c")
	ipa=$(printf '0x%x' $((base + off)))
	got=$(grep "^\[$cpu\]" <<<"$trace" | grep -v selftest |
		sed -E 's/^\[[0-9]+\][[:space:]]+[0-9.]+: //' | tr '\n' '|')
	want="hyp_enter reason=trap func_id=0x24\|host_abort ipa=$ipa va=0x[0-9a-f]+ esr=0x9[23][0-9a-f]{6}\|hyp_exit reason=trap func_id=0x24 ret=0\|"
	grep -Eqx "$want" <<<"$got" ||
		fail "CPU $c: the trace shows '$got', want enter, host_abort at $ipa, exit"
	grep -q "^\[$cpu\].*selftest id=$((c + 500))\$" <<<"$trace" ||
		fail "CPU $c: write_event after the abort did not reach the trace"
done
grep -q '^\[000\].*selftest id=500$' <<<"$trace" ||
	fail "CPU 0: write_event did not reach the trace"

expect_line 'hyptrace: SYSTEM_OFF from CPU [0-9]+, memory canary intact'
expect_line 'CPU: All CPU\(s\) started at EL1'
pass "3 accesses to the hypervisor's region (vector write, header read, private-memory write) on CPUs 1-3: each a synchronous external abort in Linux, which ran on; traced as trap + host_abort with the IPA; hypercalls on every CPU afterwards; canary intact"
