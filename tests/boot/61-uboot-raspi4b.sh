#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The Raspberry Pi 4 booted as a Pi user boots it (qemu-run.sh --board
# raspi4b --uboot, QEMU 9.0 or later: Debian's newest): an SD card image
# made without root by boot/mkdisk.sh, with one FAT partition holding
# Debian's U-Boot for the Pi 4 (u-boot-rpi's rpi_4, fetched by
# scripts/fetch-uboot-rpi.sh), the config.txt a Pi's firmware would read
# (arm_64bit=1, kernel=u-boot.bin, enable_uart=1), boot.scr, hyptrace.env,
# hyptrace.bin, Debian's stock kernel, the board's device tree and the
# initramfs. QEMU plays the firmware: it starts that U-Boot at EL2 with
# CPUs 1-3 in the spin table; U-Boot's distro boot finds boot.scr on the
# card (mmc 0:1), which loads the rest and starts the hypervisor with
# booti; then 51-raspi4b's checks pass again (console on the mini-UART,
# all 4 CPUs at EL1 through the hypervisor's PSCI, tracing on 4 CPUs, CPUs
# 1-3 off and on, writes into the hypervisor and to the spin table fault,
# poweroff answered with no firmware to ask).
#
# The tree: hyptrace.env names the card's copy (dtb_file), which boot.scr
# loads and hands on instead of the one the firmware gave U-Boot. QEMU
# gets Debian's tree as it is, HDMI and all, which QEMU does not model:
# Linux survives its probe only on the card's copy (raspi4b_dtb), which
# also carries a property of its own that the guest must see.
# shellcheck source=tests/boot/lib.sh
. "$(dirname "$0")/lib.sh"

DTB_NAME=broadcom/bcm2711-rpi-4-b.dtb
BOARD_HOTPLUG=5
UART=0xfe215040
HYP=0x200000		# board_uboot_disk_args' addresses for the Pi 4
LINUX=0x3000000
MARK=hyptrace,test-tree	# /chosen property only the card's tree has

log=$TEST_LOGS/$TEST_NAME
mkdir -p "$log"
qemu=$(bash "$HYPTRACE_TOP/scripts/setup-qemu-new.sh" 2>"$log/setup.log" | tail -n 1)
[ -x "$qemu" ] || fail "no newest QEMU: $(tail -n 2 "$log/setup.log")"
pi_board "$DTB_NAME"
card_dtb=$PI_WORK/bcm2711-rpi-4-b.dtb
raspi4b_dtb "$STOCK_DTB" "$card_dtb"
fdtput -t s "$card_dtb" /chosen "$MARK" sd-card || fail "cannot mark the card's tree"

# The guest side: guest/hyp-dmesg.sh, guest/61-uboot-raspi4b.sh, the
# board checks
board_boot uboot-raspi4b "sh /root/hyp-dmesg.sh; sh /root/61-uboot-raspi4b.sh $MARK" \
	--qemu "$qemu" --board raspi4b --dtb "$STOCK_DTB" \
	--uboot --uboot-dtb "$card_dtb" \
	--kernel "$STOCK_VMLINUZ" --modules "$PI_WORK/modules" \
	--add "$GUEST_DIR/61-uboot-raspi4b.sh"
grep -q '^hyptrace-boot: running boot.scr from mmc ' "$BOOT_LOG" ||
	fail "U-Boot did not run boot.scr from the SD card${BOOT_MSG:+: $BOOT_MSG} (log $BOOT_LOG)"
expect_ok
expect_line '^hyptrace-boot: device tree bcm2711-rpi-4-b.dtb from the partition at ' \
	"boot.scr loading the tree hyptrace.env names"
expect_line "^hyptrace-boot: booting hyptrace at $HYP, Linux at $LINUX, "
[ "$(value tree)" = sd-card ] ||
	fail "Linux's /chosen/$MARK is '$(value tree)', want sd-card: not the card's tree"
pi_expect_boot "$UART" "$LINUX"
board_expect
pi_expect_off
pass "Raspberry Pi 4B from an SD card: Debian's U-Boot rpi_4 ran boot.scr from mmc 0:1, the card's tree (dtb_file), hyptrace at $HYP entered Debian's kernel at $LINUX at EL1 on 4 spin-table CPUs through its own PSCI, console bcm2835-aux at $UART; $BOARD_SUMMARY; SYSTEM_OFF left to Linux"
