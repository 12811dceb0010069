#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The CPU-state window and the canaries (hyp/arch/cpu_state.c, setway.c):
# - boot with hyptrace.early=cpu_sysreg+...: every CPU's trace (the
#   remote's trace file, and stock trace-cmd report of hyptrace record's
#   file) holds its set-up as Linux writes it: SCTLR_EL1 first with M
#   clear, then CPACR_EL1, MAIR_EL1, TCR_EL1, TTBR0_EL1, TTBR1_EL1 and
#   SCTLR_EL1 with M set, the last of the window, but for VBAR_EL1 with
#   FGT: one more write, after the MMU is on, of Linux's `vectors` (from
#   /proc/kallsyms);
# - CPU 1 offline and online again with tracing on: the same window, on
#   CPU 1 only, from its CPU_ON;
# - then the traps are off: user programs run on every CPU (each context
#   switch writes TTBR0_EL1, which TVM would trap) and no cpu_sysreg comes;
# - set/way canary: setway_probe.ko's DC ISW, CSW, CISW, one setway_op
#   each per CPU, and they still complete;
# - IMPDEF canary: impdef_probe.ko reads L2CTLR_EL1 twice per CPU: one
#   impdef_sysreg per CPU (the first read), both reads agree, no oops.
# On cortex-a57 (TVM and CPTR_EL2.TCPAC, no FGT: no vbar_el1) with the
# default QEMU, which does not implement HCR_EL2.TIDCP (no impdef_sysreg
# there); on -cpu max (FGT) and cortex-a72 (TVM, the Raspberry Pi 4's core)
# with the newest QEMU (scripts/setup-qemu-new.sh), which does.
# shellcheck source=tests/boot/lib.sh
. "$(dirname "$0")/lib.sh"

EARLY='hyptrace.early=cpu_sysreg+setway_op+impdef_sysreg,size=64'

# The guest side: guest/39-cpu-state.sh

# phase_trace B|H: the trace lines of that phase, unprefixed
phase_trace() {
	grep -a "^@$1 " "$BOOT_LOG" | sed "s/^@$1 //; s/\\r\$//" || true
}

# window_of TRACE CPU: "reg=value" per cpu_sysreg of CPU, in order
window_of() {
	awk -v cpu="$(printf '[%03d]' "$2")" \
		'$1 == cpu && $3 == "cpu_sysreg" { print $4 }' <<<"$1"
}

# check_window WHAT REGS FGT: REGS ("reg=value" lines) is one whole window
check_window() {
	local what=$1 regs=$2 fgt=$3 names first last r
	names=$(cut -d= -f1 <<<"$regs" | sort -u | tr '\n' ' ')
	for r in sctlr_el1 cpacr_el1 mair_el1 tcr_el1 ttbr0_el1 ttbr1_el1; do
		[[ " $names" == *" $r "* ]] || fail "$what: no $r write in its window: $(tr '\n' ' ' <<<"$regs")"
	done
	first=$(grep -m1 '^sctlr_el1=' <<<"$regs" | cut -d= -f2)
	(( (first & 1) == 0 )) || fail "$what: first SCTLR_EL1 write $first has M set"
	last=$(grep '^sctlr_el1=' <<<"$regs" | tail -n 1 | cut -d= -f2)
	(( (last & 1) == 1 )) || fail "$what: last SCTLR_EL1 write $last has M clear"
	grep -q '^cpacr_el1=0x0$' <<<"$regs" || fail "$what: CPACR_EL1 not written 0 (msr cpacr_el1, xzr)"
	if [ "$fgt" = 1 ]; then
		[ "$(tail -n 1 <<<"$regs")" = "vbar_el1=0x$(value vectors)" ] ||
			fail "$what: last write '$(tail -n 1 <<<"$regs")', want vbar_el1=0x$(value vectors) (Linux's vectors)"
		[ "$(tail -n 2 <<<"$regs" | head -n 1)" = "sctlr_el1=$last" ] ||
			fail "$what: SCTLR_EL1 with M set is not the last write before VBAR_EL1"
	else
		[ "$(tail -n 1 <<<"$regs")" = "sctlr_el1=$last" ] ||
			fail "$what: last write '$(tail -n 1 <<<"$regs")', want SCTLR_EL1 with M set"
		! grep -q '^vbar_el1=' <<<"$regs" || fail "$what: a vbar_el1 event without FGT"
	fi
}

# check_model CASE FGT IMPDEF [qemu-run.sh options]
check_model() {
	local case=$1 fgt=$2 impdef=$3 boot_trace trace c cpu regs n iss dat
	shift 3
	boot "$case" --append "$EARLY" "$@" \
		--add "$GUEST_DIR/39-cpu-state.sh" --cmd "sh /root/39-cpu-state.sh"
	expect_ok
	[ "$(value alive)" = 42 ] || fail "the guest script did not finish"
	[ "$(value online)" = 0-3 ] || fail "CPUs online '$(value online)', want 0-3"
	[ -n "$(value vectors)" ] || fail "no vectors in /proc/kallsyms"
	expect_line 'setway_probe: 3 set/way operations on each of 4 CPUs'
	expect_line 'impdef_probe: L2CTLR_EL1 read twice on each of 4 CPUs, 4 reads agreed'
	expect_no_kernel_trouble
	expect_no_line 'hyptrace: CPU [0-9]+: trap from'

	boot_trace=$(phase_trace B)
	# Stock trace-cmd reads the same windows from the format files
	[ "$(value rec_rc)" = 0 ] || fail "hyptrace record --keep exited $(value rec_rc)"
	dat=$TEST_LOGS/$TEST_NAME-$case.dat
	guest_file boot.dat "$dat"
	"$TC_REPORT" -i "$dat" >"$dat.txt" 2>"$dat.err" ||
		fail "trace-cmd report failed: $(head -n 2 "$dat.err")"
	for c in 0 1 2 3; do
		[ "$(grep -c "\[00$c\] .*cpu_sysreg: *sctlr_el1=0x[0-9a-f]* pc=0x" "$dat.txt")" = 2 ] ||
			fail "trace-cmd report: not 2 sctlr_el1 writes on CPU $c (see $dat.txt)"
	done
	for c in 0 1 2 3; do
		regs=$(window_of "$boot_trace" "$c")
		check_window "CPU $c at boot" "$regs" "$fgt"
	done
	trace=$(phase_trace H)
	# Hotplug: one window, CPU 1's, and nothing from any other CPU
	for c in 0 2 3; do
		[ -z "$(window_of "$trace" "$c")" ] ||
			fail "CPU $c wrote cpu_sysreg after its window closed"
	done
	regs=$(window_of "$trace" 1)
	check_window "CPU 1 after CPU_ON" "$regs" "$fgt"
	n=$(grep -c '^sctlr_el1=' <<<"$regs")
	[ "$n" = 2 ] || fail "CPU 1: $n SCTLR_EL1 writes after CPU_ON, want 2 (one window)"
	# After CPU 1's window, user programs and modules: no cpu_sysreg
	n=$(awk '$3 == "cpu_sysreg" { last = NR } END { print last + 0 }' <<<"$trace")
	[ "$(awk -v n="$n" 'NR > n && $3 == "cpu_sysreg"' <<<"$trace")" = "" ] ||
		fail "cpu_sysreg after the last window"
	for c in 0 1 2 3; do
		cpu=$(printf '[%03d]' "$c")
		n=$(awk -v cpu="$cpu" '$1 == cpu && $3 == "setway_op"' <<<"$trace" |
			awk '{ print $5 }' | tr '\n' ' ')
		[ "$n" = "isw csw cisw " ] || fail "CPU $c setway_op ops '$n', want 'isw csw cisw '"
		n=$(awk -v cpu="$cpu" '$1 == cpu && $3 == "impdef_sysreg"' <<<"$trace" | wc -l)
		if [ "$impdef" = 1 ]; then
			[ "$n" = 1 ] || fail "CPU $c: $n impdef_sysreg events, want 1 (the first read only)"
			# MRS Xt, S3_1_C11_C0_2: op0 3, op2 2, op1 1, CRn 11,
			# CRm 0, read; any Rt (ISS bits 9:5)
			iss=$(awk -v cpu="$cpu" '$1 == cpu && $3 == "impdef_sysreg" {
				sub("iss=", "", $5); print $5 }' <<<"$trace")
			if [ "$(awk -v cpu="$cpu" '$1 == cpu && $3 == "impdef_sysreg" { print $4 }' <<<"$trace")" != ec=0x18 ] ||
				(( (iss & ~0x3e0) != 0x346c01 )); then
				fail "CPU $c: impdef_sysreg iss=$iss is not a read of S3_1_C11_C0_2"
			fi
		else
			[ "$n" = 0 ] || fail "CPU $c: impdef_sysreg on a QEMU without TIDCP"
		fi
	done
	info "$case: 4 boot windows and CPU 1's CPU_ON window; $(window_of "$trace" 1 | wc -l) writes each"
}

check_model cortex-a57 0 0
qemu=$(bash "$HYPTRACE_TOP/scripts/setup-qemu-new.sh" 2>"$TEST_LOGS/$TEST_NAME-setup.log" | tail -n 1)
[ -x "$qemu" ] || fail "no newest QEMU: $(tail -n 2 "$TEST_LOGS/$TEST_NAME-setup.log")"
check_model cpu-max 1 1 --qemu "$qemu" --cpu max
check_model cortex-a72 0 1 --qemu "$qemu" --cpu cortex-a72
pass "the MMU set-up of every CPU at boot and of CPU 1 after CPU_ON, on cortex-a57 (TVM), max (FGT, VBAR_EL1 = vectors) and cortex-a72 (TVM, the Pi 4's core); traps off after; set/way and IMPDEF canaries recorded, the accesses performed"
