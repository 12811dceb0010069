#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Bring your own kernel: Debian's stock arm64 kernels (Debian 12's 6.1 and
# the newest 7.x of trixie-backports, fetched by scripts/fetch-stock-kernel.sh)
# boot under the hypervisor with ./qemu-run.sh --kernel, with GICv3 (the
# default) and GICv2 (--gic 2, as a Raspberry Pi 4's GIC-400):
# - Linux runs at EL1 on all 4 CPUs, and it is the stock kernel (uname -r);
# - CPUs 1-3 go offline and online again through the PSCI relay;
# - the project's hyptrace.ko cannot load into such a kernel, and the guest
#   says why on the console instead of stopping.
# Then the project's own kernel with --gic 2, where tracing must still work.
# shellcheck source=tests/boot/lib.sh
. "$(dirname "$0")/lib.sh"

BOOT_TIMEOUT=180

# fetch SUITE: set VMLINUZ to the path of that suite's stock vmlinuz
# (downloaded once, then taken from the cache).
fetch() {
	local log=$TEST_LOGS/$TEST_NAME-fetch-$1.log
	VMLINUZ=$(bash "$HYPTRACE_TOP/scripts/fetch-stock-kernel.sh" "$1" 2>"$log" |
		tail -n 1) || true
	if [ -z "$VMLINUZ" ] || [ ! -f "$VMLINUZ" ]; then
		fail "scripts/fetch-stock-kernel.sh $1: $(tail -n 1 "$log")"
	fi
	info "$1: $VMLINUZ"
}

# The guest side: guest/65-own-kernel.sh

# expect_gic 2|3: the guest's probe says that GIC.
expect_gic() {
	local want_intc=arm,gic-v3 want_chip=GICv3
	[ "$1" = 3 ] || { want_intc=arm,cortex-a15-gic; want_chip=GIC-0; }
	[ "$(value intc)" = "$want_intc" ] ||
		fail "interrupt controller '$(value intc)' in the device tree, want $want_intc (GICv$1)"
	[ "$(value irqchip)" = "$want_chip" ] ||
		fail "irq chip '$(value irqchip)' in /proc/interrupts, want $want_chip (GICv$1)"
}

# check_stock CASE VMLINUZ GIC: boot the stock kernel with that GIC.
check_stock() {
	local case=$1 vmlinuz=$2 gic=$3 release gic_opt=()
	release=${vmlinuz##*/vmlinuz-}
	[ "$gic" = default ] || gic_opt=(--gic "$gic")
	boot "$case" --kernel "$vmlinuz" "${gic_opt[@]+"${gic_opt[@]}"}" \
		--smp 4 --add "$GUEST_DIR/65-own-kernel.sh" \
		--cmd "sh /root/65-own-kernel.sh hotplug"
	[ -z "$(value error)" ] || fail "in the guest: $(value error)"
	expect_ok
	[ "$(value release)" = "$release" ] ||
		fail "uname -r says '$(value release)', want the stock '$release'"
	[ "$(value online)" = 0-3 ] ||
		fail "online CPUs '$(value online)' at the end, want 0-3"
	[ "$(count_lines 'psci: CPU[1-3] killed')" = 6 ] ||
		fail "$(count_lines 'psci: CPU[1-3] killed') 'psci: CPUn killed' lines, want 6"
	[ "$(count_lines 'CPU[1-3]: Booted secondary processor')" = 9 ] ||
		fail "$(count_lines 'CPU[1-3]: Booted secondary processor') 'Booted secondary processor' lines, want 9 (3 at boot)"
	if [ "$gic" = 2 ]; then expect_gic 2; else expect_gic 3; fi
	# The module is absent for this kernel; the guest says so and why.
	expect_line '^hyptrace-guest: no hypervisor tracing: .+' \
		"the guest's reason for booting without tracing"
	expect_no_line 'hyptrace-guest: tracing ready'
	expect_healthy
}

fetch bookworm
K61=$VMLINUZ
fetch trixie-backports
K7=$VMLINUZ
check_stock bookworm-gic3 "$K61" default
check_stock bookworm-gic2 "$K61" 2
check_stock trixie-backports-gic3 "$K7" default
check_stock trixie-backports-gic2 "$K7" 2

# The project's kernel with a GICv2: its tracing still works.
boot project-gic2 --gic 2 --smp 4 --add "$(trace_on_file 64 all)" \
	--add "$GUEST_DIR/65-own-kernel.sh" --cmd "sh /root/65-own-kernel.sh trace"
expect_ok
expect_line 'hyptrace-guest: tracing ready' "hyptrace.ko loaded"
expect_gic 2
expect_line '^@T .*selftest id=7' "write_event's selftest event in trace"
expect_line '^@T .*hyp_enter reason=hvc' "a hypercall's hyp_enter in trace"
expect_healthy

pass "Debian's $(basename "$K61") and $(basename "$K7") boot at EL1 on 4 CPUs" \
	"under the hypervisor with GICv3 and GICv2, CPUs 1-3 off/on, module" \
	"absence explained; the project's kernel traces with --gic 2"
