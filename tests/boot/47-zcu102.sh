#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# A board that is not virt: QEMU's Xilinx ZCU102 (qemu-run.sh --board
# zcu102) with Debian's own tree for it (zynqmp-zcu102-rev1.0.dtb, from
# the stock kernel's linux-base package) and Debian's stock trixie-backports
# kernel, hyptrace.ko built against its headers (the debugfs front end).
# The console is the Cadence UART that stdout-path names by alias
# ("serial0:115200n8" -> /axi/serial@ff000000): the hypervisor finds it
# (its "console: cdns at 0xff000000" line, read back from its log in
# dmesg), all 4 CPUs start at EL1, and the hypervisor's SYSTEM_OFF line
# comes out on the Cadence UART. Its lines from before Linux do not:
# without the boot firmware a board has, nothing enables QEMU's UART's
# transmitter until Linux does, and the model drops what it is given
# meanwhile; the log keeps them.
#
# One edit to Debian's tree: QEMU's ZynqMP runs no PMU firmware, so the
# clock, power-domain and pin controllers the UART's node points at never
# appear and Linux's driver would wait for them for ever (no ttyPS0, no
# console for the guest). The node gets a fixed 100 MHz clock instead and
# loses the rest; the hypervisor reads none of them.
# shellcheck source=tests/boot/lib.sh
. "$(dirname "$0")/lib.sh"

SUITE=trixie-backports
DTB_NAME=xilinx/zynqmp-zcu102-rev1.0.dtb
UART=/axi/serial@ff000000
CLK_PHANDLE=0x7fff0001	# far above what dtc numbers its phandles from

stock_board "$SUITE" "$DTB_NAME"
stock_test_modules "$SUITE"

work=$(mktemp -d "${TMPDIR:-/tmp}/hyptrace-47.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp "$STOCK_DTB" "$work/zcu102.dtb"
{
	fdtput -c "$work/zcu102.dtb" /uart-clk &&
	fdtput -t s "$work/zcu102.dtb" /uart-clk compatible fixed-clock &&
	fdtput -t u "$work/zcu102.dtb" /uart-clk '#clock-cells' 0 &&
	fdtput -t u "$work/zcu102.dtb" /uart-clk clock-frequency 100000000 &&
	fdtput -t x "$work/zcu102.dtb" /uart-clk phandle "$CLK_PHANDLE" &&
	fdtput -t x "$work/zcu102.dtb" "$UART" clocks "$CLK_PHANDLE" "$CLK_PHANDLE" &&
	fdtput -d "$work/zcu102.dtb" "$UART" power-domains resets \
		assigned-clocks pinctrl-names pinctrl-0
} || fail "cannot edit $DTB_NAME with fdtput"
[ "$(fdtget "$work/zcu102.dtb" /chosen stdout-path)" = serial0:115200n8 ] ||
	fail "$DTB_NAME's stdout-path is no longer serial0:115200n8"

mkdir "$work/modules"
cp "$STOCK_KO" "$STOCK_TEST_KO_DIR"/*.ko "$work/modules/"

# The guest side: guest/hyp-dmesg.sh, guest/47-zcu102.sh, the board checks
board_boot zcu102 "sh /root/hyp-dmesg.sh; sh /root/47-zcu102.sh" \
	--board zcu102 --dtb "$work/zcu102.dtb" --kernel "$STOCK_VMLINUZ" \
	--modules "$work/modules" --add "$GUEST_DIR/47-zcu102.sh"
expect_ok
expect_line '^@dmesg hyp: console: cdns at 0xff000000, reg-shift 0, reg-io-width 4 \(stdout-path "serial0"\)$' \
	"the Cadence UART from Debian's tree, through its alias"
expect_line '^@dmesg hyp: entering Linux at 0x400000 at EL1' "the log, to its end"
expect_line '^@files .*hyp_log ' "hyp_log in the fallback's directory"
expect_line 'SMP: Total of 4 processors activated'
expect_line 'CPU: All CPU\(s\) started at EL1'
expect_no_line 'CPUs started in inconsistent modes'
expect_no_line 'hyptrace: PANIC'
board_expect
expect_line '^hyptrace: SYSTEM_OFF from CPU [0-9], memory canary intact' \
	"the hypervisor's own line on the Cadence UART"
pass "ZCU102, Debian's tree and stock kernel: console cdns at 0xff000000 (serial0), 4 CPUs at EL1, the log in dmesg and hyp_log; $BOARD_SUMMARY; SYSTEM_OFF on the UART"
