#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# virt-dtb-edit.py CASE IN.dts OUT.dts: QEMU virt's device tree (dtc's
# text of what --dump-dtb wrote), edited as boards have theirs, for the
# console tests (lib.sh, virt_dtb):
#   ranges	the PL011 moved under two simple-bus nodes whose ranges are
#		not 1:1 (its reg 0x0 on the inner bus is 0x21000000 on the
#		outer, which is 0x09000000 on the CPU's), and stdout-path an
#		alias with options, "hypuart:115200n8"
#   none	stdout-path naming a UART no driver claims, "/serial@9100000"
#		(compatible "acme,uart"); the PL011 stays for Linux
import re
import sys

case, src, dst = sys.argv[1:4]
text = open(src).read()
m = re.search(r'^\tpl011@9000000 \{\n(.*?)^\t\};\n', text, re.M | re.S)
if not m:
    sys.exit('no /pl011@9000000 node in ' + src)
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
