#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# A trap from EL1 that the hypervisor does not handle is UNDEFINED at EL1,
# as on a CPU without EL2, and costs nothing but that instruction:
# - undef_probe.ko reads ACTLR_EL1, which the hypervisor traps on every CPU
#   model (HCR_EL2.TACR) and handles in no way, once on CPU 1 and once on
#   CPU 2;
# - Linux reports "Oops - Undefined instruction" with the syndrome of an
#   undefined instruction (EC 0, IL), at the probe's own pc, twice; it kills
#   the writing process each time and goes on running;
# - the hypervisor says so on its console once for the exception class, not
#   once per trap;
# - its trace shows each trap as hyp_enter/hyp_exit with reason "trap" and
#   the class (0x18: an MSR/MRS) on the CPU that trapped.
# shellcheck source=tests/boot/lib.sh
. "$(dirname "$0")/lib.sh"

EC=0x18
PROBE=/sys/kernel/debug/undef_probe

# The guest side: guest/36-undef.sh
boot smp4 --add "$(trace_on_file 64 hyp_enter hyp_exit)" \
	--add "$GUEST_DIR/36-undef.sh" --cmd "sh /root/36-undef.sh $PROBE"
expect_ok
[ "$(value alive)" = 42 ] || fail "the guest ran no command after the probes"

# The writer dies of the oops (SIGSEGV: status 139), not of anything else.
for c in 1 2; do
	[ "$(value "probe$c")" = 139 ] ||
		fail "the probe on CPU $c ended with status '$(value "probe$c")', want 139 (killed by the oops)"
done

# Linux: an undefined instruction, EC 0 with IL, at the probe's pc.
oops='Internal error: Oops - Undefined instruction: 0000000002000000 '
n=$(count_lines "$oops")
[ "$n" = 2 ] || fail "$n 'Oops - Undefined instruction' (ESR 0x2000000) reports, want 2"
n=$(count_lines '^\[ *[0-9.]+\] pc : undef_probe_write\+')
[ "$n" = 2 ] || fail "$n oops reports with pc in undef_probe_write, want 2"
expect_no_line 'Kernel panic'

# The hypervisor: one console line for the class, however many traps.
hyp_re="^hyptrace: CPU [12]: trap from EL1 at 0x[0-9a-f]+, ESR_EL2 0x[0-9a-f]+ \\(EC $EC\\): UNDEFINED at EL1"
n=$(count_lines "$hyp_re")
[ "$n" = 1 ] || fail "$n hypervisor console lines for EC $EC, want exactly 1"
expect_no_line 'hyptrace: PANIC'

# The trace: each CPU entered for the trap and left again.
trace=$(trap_trace)
for c in 1 2; do
	cpu=$(printf '%03d' "$c")
	grep -q "^\[$cpu\].*hyp_enter reason=trap func_id=$EC\$" <<<"$trace" ||
		fail "CPU $c: no 'hyp_enter reason=trap func_id=$EC' in the trace"
	grep -q "^\[$cpu\].*hyp_exit reason=trap func_id=$EC ret=0\$" <<<"$trace" ||
		fail "CPU $c: no 'hyp_exit reason=trap func_id=$EC ret=0' in the trace"
done

expect_line 'CPU: All CPU\(s\) started at EL1'
pass "ACTLR_EL1 on CPUs 1 and 2: two undefined-instruction oopses at the probe, the guest ran on; one hypervisor line for EC $EC; hyp_enter/hyp_exit reason=trap on both CPUs"
