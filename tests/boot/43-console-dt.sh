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

"$HYPTRACE_TOP/qemu-run.sh" --no-build --quiet --dump-dtb "$work/virt.dtb" ||
	fail "qemu-run.sh --dump-dtb failed"
dtc -q -I dtb -O dts -o "$work/virt.dts" "$work/virt.dtb" ||
	fail "dtc cannot read QEMU's device tree"
grep -q '^	pl011@9000000 {' "$work/virt.dts" ||
	fail "no /pl011@9000000 in QEMU's device tree"

# edit_dts CASE IN OUT: the tree for CASE, as dts text
edit_dts() {
	python3 - "$@" <<'PY'
import re
import sys

case, src, dst = sys.argv[1:4]
text = open(src).read()
m = re.search(r'^\tpl011@9000000 \{\n(.*?)^\t\};\n', text, re.M | re.S)
uart = m.group(1)
if case == 'ranges':
    text = text[:m.start()] + text[m.end():]
    props = re.sub(r'reg = <[^>]*>;', 'reg = <0x00 0x1000>;', uart)
    props = ''.join('\t\t' + line + '\n' for line in props.splitlines())
    bus = ('\tsoc {\n'
           '\t\tcompatible = "simple-bus";\n'
           '\t\t#address-cells = <0x01>;\n'
           '\t\t#size-cells = <0x01>;\n'
           '\t\tranges = <0x20000000 0x00 0x8000000 0x2000000>;\n\n'
           '\t\tapb {\n'
           '\t\t\tcompatible = "simple-bus";\n'
           '\t\t\t#address-cells = <0x01>;\n'
           '\t\t\t#size-cells = <0x01>;\n'
           '\t\t\tranges = <0x00 0x21000000 0x10000>;\n\n'
           '\t\t\tserial@0 {\n' + props + '\t\t\t};\n'
           '\t\t};\n'
           '\t};\n\n'
           '\taliases {\n'
           '\t\thypuart = "/soc/apb/serial@0";\n'
           '\t};\n')
    path = 'hypuart:115200n8'
else:
    bus = ('\tserial@9100000 {\n'
           '\t\tcompatible = "acme,uart";\n'
           '\t\treg = <0x00 0x9100000 0x00 0x1000>;\n'
           '\t};\n')
    path = '/serial@9100000'
# At the end of the root node: its properties come before its nodes
end = text.rindex('\n};')
text = text[:end] + '\n\n' + bus + text[end:]
text = re.sub(r'stdout-path = "[^"]*";', 'stdout-path = "%s";' % path, text)
open(dst, 'w').write(text)
PY
}

for c in ranges none; do
	edit_dts "$c" "$work/virt.dts" "$work/$c.dts" ||
		fail "cannot edit QEMU's device tree for $c"
	dtc -q -I dts -O dtb -o "$work/$c.dtb" "$work/$c.dts" ||
		fail "dtc cannot compile the $c tree"
done

boot ranges --dtb "$work/ranges.dtb" --cmd 'cat /proc/device-tree/chosen/stdout-path; echo'
expect_ok
expect_line '^hyptrace: console: pl011 at 0x9000000, reg-shift 0, reg-io-width 4 \(stdout-path "hypuart"\)' \
	"the PL011 found through two buses' ranges"
expect_line '^hypuart:115200n8' "Linux had the edited tree"
expect_line '^hyptrace: entering Linux at ' "the hypervisor's lines on the translated console"
expect_healthy

boot none --dtb "$work/none.dtb" --cmd '
dmesg | grep "hyptrace: hyp: " | sed "s/^.*hyptrace: hyp: /@hyp /"
sed "s/^/@file /" "$(hyptrace-dir)/hyp_log"'
expect_ok
expect_no_line '^hyptrace: ' "the hypervisor printed on a console it should not have"
expect_line '^@hyp no console: stdout-path "/serial@9100000" \(acme,uart\): no driver for its compatible; this log only$' \
	"why there is no console, in dmesg"
expect_line '^@hyp version [0-9.]+, EL2, 4 CPUs, ' "the banner, in dmesg"
expect_line '^@hyp entering Linux at 0x[0-9a-f]+ at EL1' "the last line before Linux, in dmesg"
expect_line '^@file hyptrace: no console: stdout-path "/serial@9100000"' "hyp_log, whole"
expect_line '^@file hyptrace: entering Linux at ' "hyp_log, to its end"
expect_line 'CPU: All CPU\(s\) started at EL1'
expect_no_kernel_trouble
pass "PL011 through two buses' ranges: console at 0x9000000; no usable UART: no console, the log in dmesg and hyp_log"
