#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The console from the device tree, on virt with trees edited as boards
# have them (QEMU's own tree from --dump-dtb, edited, booted with --dtb):
#
#   ranges	the PL011 moved under two simple-bus nodes whose ranges are
#		not 1:1 (its reg says 0x0; 0x0 on the inner bus is
#		0x21000000 on the outer, which is 0x09000000 on the CPU's),
#		named by an alias with options (stdout-path = "hypuart:
#		115200n8"): the hypervisor translates it and prints on it,
#		and Linux, translating the same, boots with it as its console.
#   none	stdout-path names a UART no driver claims: the hypervisor
#		prints nothing on any console (no line starts "hyptrace: "),
#		Linux boots, and hyptrace.ko shows the hypervisor's log in
#		dmesg ("hyptrace: hyp: ...") and in hyp_log: why there is no
#		console, and the lines a console would have shown.
# shellcheck source=tests/boot/lib.sh
. "$(dirname "$0")/lib.sh"

work=$(mktemp -d "${TMPDIR:-/tmp}/hyptrace-43.XXXXXX")
trap 'rm -rf "$work"' EXIT
virt_dtb ranges "$work/ranges.dtb"
virt_dtb none "$work/none.dtb"

boot ranges --dtb "$work/ranges.dtb" --cmd 'cat /proc/device-tree/chosen/stdout-path; echo'
expect_ok
expect_line '^hyptrace: console: pl011 at 0x9000000, reg-shift 0, reg-io-width 4 \(stdout-path "hypuart"\)' \
	"the PL011 found through two buses' ranges"
expect_line '^hypuart:115200n8' "Linux had the edited tree"
expect_line '^hyptrace: entering Linux at ' "the hypervisor's lines on the translated console"
expect_line "^\\[ *[0-9.]+\\] hyptrace: version $(project_version_re), hypervisor ABI [0-9]+\\.[0-9]+, 4 CPUs, " \
	"the module's line at load, with the project's version"
expect_healthy

# The guest side: guest/43-console-dt.sh
boot none --dtb "$work/none.dtb" --add "$GUEST_DIR/43-console-dt.sh" \
	--cmd "sh /root/43-console-dt.sh"
expect_ok
expect_no_line '^hyptrace: ' "the hypervisor printed on a console it should not have"
expect_line '^@hyp no console: stdout-path "/serial@9100000" \(acme,uart\): no driver for its compatible; this log only$' \
	"why there is no console, in dmesg"
expect_line "^@hyp version $(project_version_re), EL2, 4 CPUs, " \
	"the banner, in dmesg, with the project's version"
expect_line '^@hyp entering Linux at 0x[0-9a-f]+ at EL1' "the last line before Linux, in dmesg"
expect_line '^@file hyptrace: no console: stdout-path "/serial@9100000"' "hyp_log, whole"
expect_line '^@file hyptrace: entering Linux at ' "hyp_log, to its end"
expect_line 'CPU: All CPU\(s\) started at EL1'
expect_no_kernel_trouble
pass "PL011 through two buses' ranges: console at 0x9000000; no usable UART: no console, the log in dmesg and hyp_log"
