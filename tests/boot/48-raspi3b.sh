#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The 8250 driver on a QEMU model: the Raspberry Pi 3B (qemu-run.sh --board
# raspi3b) with Debian's bcm2837-rpi-3-b.dtb and stock trixie-backports
# kernel, hyptrace.ko built against its headers. stdout-path is
# "serial1:115200n8", the mini-UART (brcm,bcm2835-aux-uart) at bus address
# 0x7e215040, which /soc's ranges put at 0x3f215040 for the CPU, with its
# 32-bit registers 4 bytes apart: the hypervisor's lines come out on it,
# Linux's earlycon agrees on the address, Linux runs at EL1, and the
# hypervisor's log is in dmesg.
#
# nosmp: the Pi's CPUs are released by spin table, straight into Linux at
# EL2 and outside stage 2 (a separate issue); only the boot CPU runs here.
# The Pi has no PSCI to power off with: qemu-run.sh ends QEMU when Linux
# says it halted instead.
# shellcheck source=tests/boot/lib.sh
. "$(dirname "$0")/lib.sh"

SUITE=trixie-backports
DTB_NAME=broadcom/bcm2837-rpi-3-b.dtb

stock_board "$SUITE" "$DTB_NAME"
[ "$(fdtget "$STOCK_DTB" /chosen stdout-path)" = serial1:115200n8 ] ||
	fail "$DTB_NAME's stdout-path is no longer serial1:115200n8"

# shellcheck disable=SC2016 # expands in the guest
boot raspi3b --board raspi3b --dtb "$STOCK_DTB" --kernel "$STOCK_VMLINUZ" \
	--modules "$STOCK_KO" --append nosmp --cmd '
dmesg | grep "hyptrace: " | sed "s/^.*hyptrace: /@dmesg /"'
expect_ok
expect_line '^hyptrace: console: bcm2835-aux at 0x3f215040, reg-shift 2, reg-io-width 4 \(stdout-path "serial1"\)$' \
	"the mini-UART through /soc's ranges, on the mini-UART itself"
expect_line '^hyptrace: entering Linux at 0x400000 at EL1' "the hypervisor's last line before Linux"
expect_line 'earlycon: bcm2835aux0 MMIO32:0x0*3f215040 ' "Linux's earlycon at the same address"
expect_line '^@dmesg hyp: console: bcm2835-aux at 0x3f215040' "the log in dmesg"
expect_line 'CPU: All CPU\(s\) started at EL1'
expect_no_line 'hyptrace: PANIC'
expect_no_kernel_trouble
pass "Raspberry Pi 3B, Debian's tree and stock kernel: console bcm2835-aux at 0x3f215040 (reg-shift 2, 32-bit), Linux at EL1, the log in dmesg"
