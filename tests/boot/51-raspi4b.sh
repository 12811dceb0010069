#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The Raspberry Pi 4B (qemu-run.sh --board raspi4b, QEMU 9.0 or later:
# Debian's newest from scripts/setup-qemu-new.sh) with Debian's
# bcm2711-rpi-4-b.dtb and stock trixie-backports kernel, hyptrace.ko built
# against its headers: what 48-raspi3b does on the Pi 3, on the BCM2711.
# stdout-path is "serial1:115200n8", the mini-UART at bus address
# 0x7e215040, which /soc's ranges put at 0xfe215040 for the CPU. The
# Pi 4's tree says spin-table for CPUs 1-3 (release addresses 0xe0, 0xe8,
# 0xf0, no /psci node), and QEMU's raspi4b boot stub spins them there as
# the firmware's armstub does: the hypervisor releases them into its park
# and answers PSCI by HVC, so all 4 CPUs enter Linux at EL1 through it.
# The Pi 4 has a GIC-400, which the hypervisor leaves to Linux as it
# leaves the Pi 3's BCM2836 controller: it takes no interrupts. /memory
# ends below the VideoCore's carve-out (QEMU's 64 MiB at the top of the
# first GiB), which the hypervisor leaves alone, and /memreserve/ keeps
# the spin-table page, which it does not map at EL2.
#
# Then the board checks (lib.sh, board_boot with BOARD_SPIN): tracing
# on 4 CPUs, CPUs 1-3 off and on 20 times through the hypervisor's PSCI
# (psci_local in the trace), writes into the hypervisor's memory and to
# CPU 3's release address fault and the guest runs on; poweroff, and in a
# second boot reboot -f, each answered by the hypervisor with no firmware
# to ask, as on a Pi 4 with its default armstub.
#
# QEMU models no HDMI: raspi4b_dtb disables that block in a copy of the
# tree (Linux alone faults on it too). Without issue 23 the hypervisor
# leaves the spin-table CPUs to Linux: "CPUs started in inconsistent
# modes", no psci line.
# shellcheck source=tests/boot/lib.sh
. "$(dirname "$0")/lib.sh"

DTB_NAME=broadcom/bcm2711-rpi-4-b.dtb
BOARD_HOTPLUG=20
UART=0xfe215040		# the mini-UART, bus 0x7e215040 through /soc's ranges

log=$TEST_LOGS/$TEST_NAME
mkdir -p "$log"
qemu=$(bash "$HYPTRACE_TOP/scripts/setup-qemu-new.sh" 2>"$log/setup.log" | tail -n 1)
[ -x "$qemu" ] || fail "no newest QEMU: $(tail -n 2 "$log/setup.log")"
pi_board "$DTB_NAME"
[ "$(fdtget "$STOCK_DTB" /cpus/cpu@1 enable-method)" = spin-table ] ||
	fail "$DTB_NAME's CPU 1 is no longer spin-table"
[ "$(fdtget "$STOCK_DTB" /soc/serial@7e215040 compatible)" = brcm,bcm2835-aux-uart ] ||
	fail "$DTB_NAME has no mini-UART at 0x7e215040"
raspi4b_dtb "$STOCK_DTB" "$PI_WORK/bcm2711-rpi-4-b.dtb"

# The guest side: guest/hyp-dmesg.sh, the GIC's interrupts, the board checks
board_boot raspi4b "sh /root/hyp-dmesg.sh; grep -c GIC /proc/interrupts | sed 's/^/@gic_irqs=/'" \
	--qemu "$qemu" --board raspi4b --dtb "$PI_WORK/bcm2711-rpi-4-b.dtb" \
	--kernel "$STOCK_VMLINUZ" --modules "$PI_WORK/modules"
expect_ok
pi_expect_boot "$UART" 0x400000
expect_line 'Machine model: Raspberry Pi 4 Model B'
[ "$(value gic_irqs)" -gt 0 ] 2>/dev/null ||
	fail "no interrupts on the GIC-400 in /proc/interrupts ('$(value gic_irqs)')"
board_expect
pi_expect_off

pi_reboot --qemu "$qemu" --board raspi4b --dtb "$PI_WORK/bcm2711-rpi-4-b.dtb" \
	--kernel "$STOCK_VMLINUZ"
pass "Raspberry Pi 4B, Debian's tree and stock kernel: console bcm2835-aux at $UART (reg-shift 2, 32-bit), 4 spin-table CPUs at EL1 through the hypervisor's own PSCI, the GIC-400 Linux's, the log in dmesg; $BOARD_SUMMARY; SYSTEM_OFF and SYSTEM_RESET left to Linux"
