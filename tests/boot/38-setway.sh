#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Cache maintenance by set/way from EL1 is trapped and done by the
# hypervisor as clean and invalidate (HCR_EL2.TSW, hyp/arch/setway.c), so
# that an invalidate cannot discard the hypervisor's dirty lines:
# - setway_probe.ko runs DC ISW, DC CSW and DC CISW on each of the 4 CPUs;
# - each of the 12 is a trap (hyp_enter/hyp_exit reason=trap, EC 0x18) on
#   the CPU that ran it, in its trace;
# - each completes at EL1: the module loads, no oops, no hypervisor line
#   saying UNDEFINED, the guest runs on.
# shellcheck source=tests/boot/lib.sh
. "$(dirname "$0")/lib.sh"

EC=0x18

# The guest side: guest/probe-trace.sh, with the probe's traps as @T lines
boot smp4 --add "$(trace_on_file 64 hyp_enter hyp_exit)" \
	--add "$GUEST_DIR/probe-trace.sh" --cmd "sh /root/probe-trace.sh setway_probe trap @T"
expect_ok
[ "$(value alive)" = 42 ] || fail "the guest ran no command after the probe"
[ "$(value insmod)" = 0 ] || fail "setway_probe.ko did not load (status '$(value insmod)')"
expect_line 'setway_probe: 3 set/way operations on each of 4 CPUs'
expect_no_line 'Internal error: Oops'
expect_no_line "hyptrace: CPU [0-9]+: trap from EL1 .*\\(EC $EC\\): UNDEFINED"
expect_no_line 'hyptrace: PANIC'

trace=$(trap_trace)
for c in 0 1 2 3; do
	cpu=$(printf '%03d' "$c")
	n=$(grep -c "^\[$cpu\].*hyp_enter reason=trap func_id=$EC\$" <<<"$trace" || true)
	[ "$n" = 3 ] || fail "CPU $c: $n 'hyp_enter reason=trap func_id=$EC' in the trace, want 3"
	n=$(grep -c "^\[$cpu\].*hyp_exit reason=trap func_id=$EC ret=0\$" <<<"$trace" || true)
	[ "$n" = 3 ] || fail "CPU $c: $n 'hyp_exit reason=trap func_id=$EC ret=0', want 3"
done
pass "DC ISW, CSW and CISW on 4 CPUs: 12 traps (EC $EC) handled at EL2, each completed at EL1 without an oops"
