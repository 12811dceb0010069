#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# CPU_ON through the hypervisor's PSCI relay answers as the PSCI
# specification (DEN0022) says, for calls Linux does not normally make
# (psci_probe.ko makes them through Linux's own conduit, for CPU 2 taken
# offline first):
# - a target_cpu with bits set outside the affinity fields (bits [63:40]
#   and [31:24] must be zero) is INVALID_PARAMETERS (-2), answered by the
#   hypervisor itself: no CPU_ON reaches firmware (the trace would show its
#   firmware exit), so firmware never sees a value the relay did not check;
# - two CPU_ONs back to back, several rounds: the second finds the first
#   start on its way (ON_PENDING, -5), arrived (ALREADY_ON, -4) or done
#   (SUCCESS), never anything else; every start arrives once, and
#   afterwards CPU 2 comes online as usual: the relay's slot is free. On
#   QEMU the target is usually quicker than the second call, so the window
#   is proven with a start that stays in flight:
# - hyptrace.test_stall_cpu_on=2 (boot/README.md) keeps CPU 2's first
#   start waiting in the hypervisor for ever, before it reaches Linux; a
#   CPU_ON for it then answers ON_PENDING (-5), not ALREADY_ON (-4), and
#   the CPU cannot be taken over (firmware says it is on).
# shellcheck source=tests/boot/lib.sh
. "$(dirname "$0")/lib.sh"

CPU=2
ROUNDS=20
CPU_ON=0xc4000003
PROBE=/lib/modules/hyptrace/psci_probe.ko

# QEMU's virt machine: CPU N has MPIDR N (the hypervisor prints the map).
MPIDR=$CPU
# The guest side: guest/31-psci-cpu-on.sh
boot smp4 --add "$(trace_on_file 64 hyp_enter hyp_exit)" \
	--add "$GUEST_DIR/31-psci-cpu-on.sh" \
	--cmd "sh /root/31-psci-cpu-on.sh $CPU $MPIDR $PROBE $CPU_ON $ROUNDS"
expect_line "^hyptrace: CPU MPIDRs by Linux CPU number: .* $CPU:0x$MPIDR( |\$)" \
	"CPU $CPU is MPIDR $MPIDR"
expect_ok

# Invalid target_cpu values: -2, and the hypervisor answered them.
bad=$(grep -a -c -E 'psci_probe: bad target=0x[0-9a-f]+ ret=' "$BOOT_LOG" || true)
[ "$bad" = 5 ] || fail "$bad answers to invalid target_cpu values, want 5"
wrong=$(grep -a -E 'psci_probe: bad target=0x[0-9a-f]+ ret=' "$BOOT_LOG" |
	grep -av 'ret=-2$' | head -n 1 || true)
[ -z "$wrong" ] || fail "want INVALID_PARAMETERS (-2): ${wrong#*psci_probe: }"
expect_no_line 'psci_probe: bad: [0-9]+ starts arrived' "an invalid CPU_ON started the CPU"
trace=$(grep -a '^@T ' "$BOOT_LOG" | sed 's/^@T //; s/\r$//')
n=$(grep -c "hyp_enter reason=smc func_id=$CPU_ON" <<<"$trace" || true)
[ "$n" -ge 5 ] || fail "the trace shows $n CPU_ON calls from Linux, want 5 (is tracing working?)"
fw=$(grep -m1 "reason=firmware func_id=$CPU_ON" <<<"$trace" || true)
[ -z "$fw" ] || fail "an invalid target_cpu reached firmware: '$fw'"

# Back-to-back CPU_ONs.
line=$(grep -a -o 'psci_probe: rounds=.*' "$BOOT_LOG" | tail -n 1)
[ -n "$line" ] || fail "no summary from psci_probe rounds=$ROUNDS"
info "$line"
count() { sed -n "s/.* $1=\([0-9]*\).*/\1/p" <<<"$line"; }
[ "$(count first_ok)" = "$ROUNDS" ] ||
	fail "the first CPU_ON of a round failed: $line"
[ "$(count settled)" = "$ROUNDS" ] ||
	fail "CPU $CPU did not go off again after a round: $line"
[ "$(count other)" = 0 ] || fail "an answer other than 0, -4, -5: $line"
[ "$(value online)" = 0-3 ] || fail "online CPUs '$(value online)' at the end, want 0-3"
expect_no_line 'hyptrace: PANIC'
expect_no_kernel_trouble
pending_rounds=$(count on_pending)

# A start that never leaves the hypervisor: guest/31-psci-stalled.sh
boot stalled --append "hyptrace.test_stall_cpu_on=$CPU" \
	--add "$GUEST_DIR/31-psci-stalled.sh" --cmd "sh /root/31-psci-stalled.sh $PROBE $MPIDR"
expect_ok
expect_line "^hyptrace: CPU $CPU: hyptrace.test_stall_cpu_on: stalling this CPU_ON start" \
	"the test option stalled CPU $CPU's first start"
[ "$(value online)" = 0-1,3 ] || fail "online CPUs '$(value online)', want 0-1,3"
answers=$(grep -a -o "psci_probe: once target=0x$MPIDR ret=.*" "$BOOT_LOG" |
	sed 's/.*ret=//; s/\r$//' | tr '\n' ' ')
[ "$answers" = "-5 -5 " ] ||
	fail "CPU_ON for a CPU whose start is in flight answered '$answers', want ON_PENDING (-5) twice"
expect_no_line 'hyptrace: PANIC'
pass "invalid target_cpu values answer -2 without reaching firmware; back-to-back CPU_ONs answer 0/-4/-5 (ON_PENDING in $pending_rounds/$ROUNDS rounds) and CPU $CPU comes back online; a start in flight answers ON_PENDING"
