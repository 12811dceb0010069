#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The i.MX driver on a QEMU model: the i.MX8M Plus EVK (qemu-run.sh
# --board imx8mp-evk, QEMU 9.1 or later: Debian's newest from
# scripts/setup-qemu-new.sh, as 15-newest-qemu runs it) with Debian's
# imx8mp-evk.dtb and stock trixie-backports kernel, hyptrace.ko built
# against its headers. stdout-path is a full path three buses deep,
# /soc@0/bus@30800000/spba-bus@30800000/serial@30890000 (UART2,
# fsl,imx8mp-uart): the hypervisor's lines come out on it, Linux's earlycon
# agrees on the address, all 4 CPUs start at EL1 (PSCI over SMC), the log
# is in dmesg, and SYSTEM_OFF's line comes out on the UART too.
#
# One edit to Debian's tree, the one QEMU's documentation of the machine
# asks for: no cpu-idle-states in /cpus.
# shellcheck source=tests/boot/lib.sh
. "$(dirname "$0")/lib.sh"

SUITE=trixie-backports
DTB_NAME=freescale/imx8mp-evk.dtb
UART_PATH=/soc@0/bus@30800000/spba-bus@30800000/serial@30890000

log=$TEST_LOGS/$TEST_NAME
mkdir -p "$log"
qemu=$(bash "$HYPTRACE_TOP/scripts/setup-qemu-new.sh" 2>"$log/setup.log" | tail -n 1)
[ -x "$qemu" ] || fail "no newest QEMU: $(tail -n 2 "$log/setup.log")"
stock_board "$SUITE" "$DTB_NAME"
stock_test_modules "$SUITE"
[ "$(fdtget "$STOCK_DTB" /chosen stdout-path)" = "$UART_PATH" ] ||
	fail "$DTB_NAME's stdout-path is no longer $UART_PATH"

work=$(mktemp -d "${TMPDIR:-/tmp}/hyptrace-49.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp "$STOCK_DTB" "$work/imx8mp-evk.dtb"
for cpu in $(fdtget -l "$work/imx8mp-evk.dtb" /cpus); do
	if fdtget "$work/imx8mp-evk.dtb" "/cpus/$cpu" cpu-idle-states >/dev/null 2>&1; then
		fdtput -d "$work/imx8mp-evk.dtb" "/cpus/$cpu" cpu-idle-states ||
			fail "cannot edit $DTB_NAME with fdtput"
	fi
done

mkdir "$work/modules"
cp "$STOCK_KO" "$STOCK_TEST_KO_DIR"/*.ko "$work/modules/"

# The guest side: guest/hyp-dmesg.sh, the board checks
board_boot imx8mp "sh /root/hyp-dmesg.sh" \
	--qemu "$qemu" --board imx8mp-evk --dtb "$work/imx8mp-evk.dtb" \
	--kernel "$STOCK_VMLINUZ" --modules "$work/modules"
expect_ok
expect_line "^hyptrace: console: imx at 0x30890000, reg-shift 0, reg-io-width 4 \\(stdout-path \"$UART_PATH\"\\)\$" \
	"UART2 through three buses, on UART2 itself"
expect_line '^hyptrace: entering Linux at 0x40400000 at EL1' "the hypervisor's last line before Linux"
expect_line 'earlycon: ec_imx6q0 MMIO:0x0*30890000 ' "Linux's earlycon at the same address"
expect_line '^@dmesg hyp: console: imx at 0x30890000' "the log in dmesg"
expect_line 'CPU: All CPU\(s\) started at EL1'
expect_no_line 'CPUs started in inconsistent modes'
expect_no_line 'hyptrace: PANIC'
board_expect
expect_line '^hyptrace: SYSTEM_OFF from CPU [0-9], memory canary intact'
pass "i.MX8MP EVK, Debian's tree and stock kernel: console imx at 0x30890000 through three buses, 4 CPUs at EL1, the log in dmesg; $BOARD_SUMMARY; SYSTEM_OFF on the UART"
