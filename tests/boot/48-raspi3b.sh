#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The 8250 driver and spin-table CPUs on a QEMU model: the Raspberry Pi 3B
# (qemu-run.sh --board raspi3b) with Debian's bcm2837-rpi-3-b.dtb and stock
# trixie-backports kernel, hyptrace.ko built against its headers.
# stdout-path is "serial1:115200n8", the mini-UART (brcm,bcm2835-aux-uart)
# at bus address 0x7e215040, which /soc's ranges put at 0x3f215040 for the
# CPU, with its 32-bit registers 4 bytes apart: the hypervisor's lines come
# out on it, Linux's earlycon agrees on the address, and the hypervisor's
# log is in dmesg.
#
# The Pi's firmware has no PSCI (no /psci node): CPUs 1-3 wait in QEMU's
# spin table at 0xe0, 0xe8 and 0xf0. The hypervisor releases them into its
# own park at boot and answers PSCI itself by HVC, so all 4 CPUs enter
# Linux at EL1 through it ("psci: PSCIv1.0 detected", no "inconsistent
# modes"), and then the board checks (lib.sh, board_boot with
# BOARD_SPIN): tracing on 4 CPUs, CPUs 1-3 off and on BOARD_HOTPLUG times
# through the hypervisor's PSCI (reason psci_local in the trace), writes
# into the hypervisor's memory and to CPU 3's release address fault, and
# the guest runs on. Before those, psci_probe.ko's CPU_ONs with CPU 2
# offline (as 31-psci-cpu-on makes them through the relay): bad target_cpu
# bits, no such CPU, CPU 1 already on, an entry outside RAM and one in the
# hypervisor's region each answer their PSCI error code, and 20 rounds of
# two back-to-back CPU_ONs start CPU 2 once each and settle. Poweroff, and
# in a second boot reboot -f: no firmware to ask, the hypervisor says so
# once and answers NOT_SUPPORTED, and qemu-run.sh ends QEMU once it has
# (Linux has no other handler here; on a Pi its watchdog's would run).
# That second boot comes from an SD card image, as a Pi 3 user boots
# (qemu-run.sh --uboot, 61-uboot-raspi4b does it on the Pi 4): Debian's
# U-Boot rpi_3 runs boot.scr from the card, which loads the card's tree
# (dtb_file) and starts the hypervisor; the console checks pass again.
#
# Before issue 23 the CPUs jumped into Linux at EL2 when Linux released
# them (this test then ran with nosmp): without it, "CPUs started in
# inconsistent modes" and no psci line.
# shellcheck source=tests/boot/lib.sh
. "$(dirname "$0")/lib.sh"

DTB_NAME=broadcom/bcm2837-rpi-3-b.dtb
BOARD_HOTPLUG=20
ROUNDS=20
OUTSIDE_RAM=0x3f000000	# the BCM2837's peripherals
HYP_REGION=0x200000	# where the hypervisor runs: 2 MiB into RAM

pi_board "$DTB_NAME"

# The guest side: guest/hyp-dmesg.sh, guest/48-raspi3b.sh, the board checks
board_boot raspi3b "sh /root/hyp-dmesg.sh; sh /root/48-raspi3b.sh $ROUNDS $OUTSIDE_RAM $HYP_REGION" \
	--board raspi3b --dtb "$STOCK_DTB" --kernel "$STOCK_VMLINUZ" \
	--modules "$PI_WORK/modules" --add "$GUEST_DIR/48-raspi3b.sh"
expect_ok
pi_expect_boot 0x3f215040 0x400000
# The hypervisor's own PSCI checks what CPU_ON is given
n=$(grep -a -c -E 'psci_probe: bad target=0x[0-9a-f]+ ret=-2$' "$BOOT_LOG" || true)
[ "$n" = 5 ] || fail "$n of 5 CPU_ONs with bad target_cpu bits answered INVALID_PARAMETERS (-2)"
expect_no_line 'psci_probe: bad: [0-9]+ starts arrived' "a bad CPU_ON started the CPU"
expect_line "psci_probe: once target=0x2 pc=$OUTSIDE_RAM ret=-9\$" "an entry outside RAM: INVALID_ADDRESS"
expect_line "psci_probe: once target=0x2 pc=$HYP_REGION ret=-9\$" "an entry in the hypervisor: INVALID_ADDRESS"
expect_line 'psci_probe: once target=0x1 ret=-4$' "CPU 1, on: ALREADY_ON"
expect_line 'psci_probe: once target=0x7 ret=-2$' "no such CPU: INVALID_PARAMETERS"
expect_line "psci_probe: rounds=$ROUNDS first_ok=$ROUNDS second: .* other=0 .*settled=$ROUNDS\$" \
	"back-to-back CPU_ONs: each first started CPU 2, each second answered ON_PENDING, ALREADY_ON or (CPU 2 off again) SUCCESS"
[ "$(value cpu2_online)" = 0 ] || fail "CPU 2 did not come back online after the probes"
board_expect
pi_expect_off

# The second boot as a Pi 3 user boots: from an SD card image through
# Debian's U-Boot rpi_3 (--uboot), which loads the card's tree (dtb_file)
pi_reboot --board raspi3b --dtb "$STOCK_DTB" --kernel "$STOCK_VMLINUZ" \
	--modules "$PI_WORK/modules" --uboot --uboot-dtb "$STOCK_DTB"
expect_line '^hyptrace-boot: running boot.scr from mmc 0:1$' "U-Boot running boot.scr from the SD card"
expect_line '^hyptrace-boot: device tree bcm2837-rpi-3-b.dtb from the partition at '
pi_expect_boot 0x3f215040 0x3000000
pass "Raspberry Pi 3B, Debian's tree and stock kernel: console bcm2835-aux at 0x3f215040 (reg-shift 2, 32-bit), 4 spin-table CPUs at EL1 through the hypervisor's own PSCI, the log in dmesg; CPU_ON's bad target, no such CPU, already on, entry outside RAM or in the hypervisor answered -2/-2/-4/-9/-9, $ROUNDS back-to-back rounds settled; $BOARD_SUMMARY; SYSTEM_OFF and SYSTEM_RESET left to Linux; the reboot from an SD card through U-Boot rpi_3"
