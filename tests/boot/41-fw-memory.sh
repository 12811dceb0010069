#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Memory the firmware keeps, overlapping RAM nodes and debug windows, on
# virt with its tree edited as firmware leaves boards' (virt-dtb-edit.py):
#
#   fwmem	/memreserve/ at 0x4c000000, a no-map optee@4e000000, a
#		second RAM node ram@40300000 over the upper half of the
#		hypervisor's region (0x40200000..0x403fffff), and a CPU debug
#		window (arm,coresight-cpu-debug) where the PL061 is:
#		- the hypervisor says it keeps out of both firmware regions
#		  and that stage 2 keeps the debug window from EL1;
#		- EL1 reads of the region's upper half (where the second
#		  node reaches) and of its lower half are each a synchronous
#		  external abort, and a register read in the debug window
#		  reads zero (no device, to Linux's AMBA bus); the hypervisor
#		  traces each as host_abort at that address, and the guest
#		  runs on;
#		- EL1 reads of both firmware regions work: stage 2 leaves
#		  them mapped, as pKVM does (stage2.c says why).
#   allow	the same tree with hyptrace.allow_debug: the debug window's
#		register reads as the PL061's peripheral ID (0x61).
#   fwclash	a no-map node over the carve-out: the hypervisor refuses to
#		boot with one line that names both.
# (A carve-out whose size wraps is 20-memory's.)
# shellcheck source=tests/boot/lib.sh
. "$(dirname "$0")/lib.sh"

POKE=/sys/kernel/debug/hyp_poke
PROBE=/sys/kernel/debug/phys_probe
WINDOW=0x9030fe0	# the PL061's PeriphID0, in the debug window
UPPER=0x180000		# in the region's upper half, which ram@40300000 covers
LOWER=0x80000		# in its lower half

work=$(mktemp -d "${TMPDIR:-/tmp}/hyptrace-41.XXXXXX")
trap 'rm -rf "$work"' EXIT
virt_dtb fwmem "$work/fwmem.dtb"
virt_dtb fwclash "$work/fwclash.dtb"

# The guest side: guest/41-fw-memory.sh
boot fwmem --dtb "$work/fwmem.dtb" \
	--add "$(trace_on_file 64 hyp_enter hyp_exit host_abort)" \
	--add "$GUEST_DIR/41-fw-memory.sh" \
	--cmd "sh /root/41-fw-memory.sh $POKE $PROBE $UPPER $LOWER $WINDOW"
expect_ok
[ "$(value alive)" = 42 ] || fail "the guest ran no command after the probes"
expect_line '^hyptrace: firmware keeps 0x4c000000\.\.0x4c00ffff \(/memreserve/\): not mapped at EL2' \
	"the /memreserve/ entry"
expect_line '^hyptrace: firmware keeps 0x4e000000\.\.0x4e1fffff \(optee@4e000000, no-map\): not mapped at EL2' \
	"the no-map node"
expect_line '^hyptrace: stage 2: 1 debug and trace register windows kept from EL1$' \
	"the debug window"
base=$(grep -a -o 'hyp_poke: the hypervisor.s region is 0x[0-9a-f]*' "$BOOT_LOG" |
	head -n 1 | sed 's/.* //')
[ -n "$base" ] || fail "hyp_poke found no hypervisor region"
for probe in upper lower; do
	[ "$(value $probe)" = 139 ] ||
		fail "the $probe read ended with status '$(value $probe)', want 139 (killed by the abort): $(grep -a -m1 '\(hyp_poke\|phys_probe\): .*read ' "$BOOT_LOG")"
done
[ "$(value window)" = 0 ] ||
	fail "the debug window's read ended with status '$(value window)', want 0 (read as zero)"
expect_line "phys_probe: read 0x0 at $WINDOW\$" "the debug window's register read as zero"
n=$(count_lines 'Internal error: synchronous external abort: 0000000096000010 ')
[ "$n" = 2 ] || fail "$n synchronous external aborts in Linux, want 2"
trace=$(grep -a '^@T ' "$BOOT_LOG" | sed 's/^@T //; s/\r$//')
for ipa in $(printf '0x%x' $((base + UPPER))) $(printf '0x%x' $((base + LOWER))) $WINDOW; do
	grep -q "host_abort ipa=$ipa " <<<"$trace" ||
		fail "no host_abort at $ipa in the trace: $(tr '\n' '|' <<<"$trace")"
done
for probe in memreserve optee; do
	[ "$(value $probe)" = 0 ] ||
		fail "the $probe read ended with status '$(value $probe)', want 0 (stage 2 maps firmware memory for Linux)"
done
expect_line 'phys_probe: read 0x[0-9a-f]+ at 0x4e000000$' "the no-map region read by EL1"
expect_line 'hyptrace: SYSTEM_OFF from CPU [0-9]+, memory canary intact'
expect_line 'CPU: All CPU\(s\) started at EL1'
expect_no_line 'hyptrace: PANIC'

boot allow --dtb "$work/fwmem.dtb" --append hyptrace.allow_debug \
	--cmd "insmod /lib/modules/hyptrace/phys_probe.ko && echo r $WINDOW > $PROBE; echo @window=\$?"
expect_ok
expect_line '^hyptrace: stage 2: 1 debug and trace register windows left to EL1 \(hyptrace.allow_debug\)' \
	"the debug window left to EL1"
[ "$(value window)" = 0 ] || fail "the debug window's read failed with hyptrace.allow_debug"
expect_line "phys_probe: read 0x61 at $WINDOW\$" "the PL061's PeriphID0 through the window"
expect_healthy

boot fwclash --dtb "$work/fwclash.dtb" --cmd 'true'
[ "$BOOT_RC" = 125 ] || fail "a no-map region over the carve-out booted (exit $BOOT_RC)"
expect_line '^hyptrace: PANIC.*firmware keeps 0x7fe00000\.\.0x7fffffff \(tee@7fe00000\), which overlaps the trace carve-out' \
	"one line naming the firmware region and the carve-out"
pass "firmware regions logged and unmapped at EL2, left to Linux at stage 2; RAM nodes overlapping the hypervisor merged, the whole region absent; the debug window absent, reading zero (present with hyptrace.allow_debug); a firmware region over the carve-out refused"
