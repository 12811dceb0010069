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
# and for the firmware-memory test (41-fw-memory):
#   fwmem	memory the firmware keeps: /memreserve/ 0x4c000000 64 KiB, a
#		no-map /reserved-memory node optee@4e000000 (2 MiB) and a
#		CMA pool with a size only; a second RAM node, ram@40300000
#		(256 MiB, device_type "memory": QEMU replaces the nodes named
#		memory), overlapping the upper half of the hypervisor's region
#		at 0x40200000; and the PL061 GPIO at 0x9030000 turned into a
#		CPU debug window ("arm,coresight-cpu-debug", not a primecell,
#		so that no Linux driver probes it; gpio-keys, its user, gone)
#   fwclash	a no-map node over the default carve-out's last 2 MiB
#		(0x7fe00000, at the top of 1 GiB of RAM at 0x40000000)
# and for the firmware-call decoding test (45-fw-decode):
#   idle	PSCI idle states that every CPU names, so that Linux's
#		cpuidle-psci calls CPU_SUSPEND: a cluster retention state
#		(power_state 0x1000001: StateID 1, standby, power level 1)
#		and a cluster power-down state (0x1010002: StateID 2,
#		power-down, level 1). QEMU's PSCI refuses both with
#		INVALID_PARAMETERS (it has no power levels), and Linux stays
#		in WFI: a state it accepts (level 0) halts the vCPU in a WFI
#		that nothing wakes here, with or without the hypervisor;
#		and SCMI channels over SMC (fw_scmi.c, dt_scmi.c): an
#		arm,scmi-smc node, function 0x82000010, with its shared
#		memory at 0x4f000000 in a no-map /reserved-memory node, an
#		arm,scmi-smc-param node, function 0x82000011, with its
#		shared memory 0x100 further in the same page, and an
#		arm,scmi-smc node, function 0x82000012, whose shared memory
#		is in the hypervisor's region (0x40201000): refused. No Linux
#		driver probes them (the test kernel has no SCMI):
#		fwcall_probe.ko makes the calls
import re
import sys


def add_root_nodes(text, nodes):
    """The nodes at the end of the root node, after its properties"""
    end = text.rindex('\n};')
    return text[:end] + '\n\n' + nodes + text[end:]


def fwmem(text):
    text = text.replace('/dts-v1/;\n',
                        '/dts-v1/;\n\n/memreserve/ 0x4c000000 0x10000;\n', 1)
    text, n = re.subn(r'^\tgpio-keys \{\n.*?^\t\};\n', '', text,
                      flags=re.M | re.S)
    if n != 1:
        sys.exit('no /gpio-keys node in ' + src)
    m = re.search(r'^\tpl061@9030000 \{\n(.*?)^\t\};\n', text,
                  re.M | re.S)
    if not m:
        sys.exit('no /pl061@9030000 node in ' + src)
    text = text[:m.start()] + text[m.end():]
    return add_root_nodes(text, (
        '\treserved-memory {\n'
        '\t\t#address-cells = <0x02>;\n'
        '\t\t#size-cells = <0x02>;\n'
        '\t\tranges;\n\n'
        '\t\toptee@4e000000 {\n'
        '\t\t\treg = <0x00 0x4e000000 0x00 0x200000>;\n'
        '\t\t\tno-map;\n'
        '\t\t};\n\n'
        '\t\tpool {\n'
        '\t\t\tcompatible = "shared-dma-pool";\n'
        '\t\t\tsize = <0x00 0x400000>;\n'
        '\t\t\treusable;\n'
        '\t\t};\n'
        '\t};\n\n'
        '\tram@40300000 {\n'
        '\t\tdevice_type = "memory";\n'
        '\t\treg = <0x00 0x40300000 0x00 0x10000000>;\n'
        '\t};\n\n'
        '\tdebug@9030000 {\n'
        '\t\tcompatible = "arm,coresight-cpu-debug";\n'
        '\t\treg = <0x00 0x9030000 0x00 0x1000>;\n'
        '\t};\n'))


def fwclash(text):
    return add_root_nodes(text, (
        '\treserved-memory {\n'
        '\t\t#address-cells = <0x02>;\n'
        '\t\t#size-cells = <0x02>;\n'
        '\t\tranges;\n\n'
        '\t\ttee@7fe00000 {\n'
        '\t\t\treg = <0x00 0x7fe00000 0x00 0x200000>;\n'
        '\t\t\tno-map;\n'
        '\t\t};\n'
        '\t};\n'))


IDLE_STATES = (
    '\t\tidle-states {\n'
    '\t\t\tentry-method = "psci";\n\n'
    '\t\t\tcluster-retention {\n'
    '\t\t\t\tcompatible = "arm,idle-state";\n'
    '\t\t\t\tarm,psci-suspend-param = <0x1000001>;\n'
    '\t\t\t\tentry-latency-us = <0x0a>;\n'
    '\t\t\t\texit-latency-us = <0x0a>;\n'
    '\t\t\t\tmin-residency-us = <0x14>;\n'
    '\t\t\t\tphandle = <0x7001>;\n'
    '\t\t\t};\n\n'
    '\t\t\tcluster-power-down {\n'
    '\t\t\t\tcompatible = "arm,idle-state";\n'
    '\t\t\t\tarm,psci-suspend-param = <0x1010002>;\n'
    '\t\t\t\tentry-latency-us = <0x14>;\n'
    '\t\t\t\texit-latency-us = <0x14>;\n'
    '\t\t\t\tmin-residency-us = <0x28>;\n'
    '\t\t\t\tphandle = <0x7002>;\n'
    '\t\t\t};\n'
    '\t\t};\n\n')


SCMI_NODES = (
    '\treserved-memory {\n'
    '\t\t#address-cells = <0x02>;\n'
    '\t\t#size-cells = <0x02>;\n'
    '\t\tranges;\n\n'
    '\t\tscmi-shmem@4f000000 {\n'
    '\t\t\tcompatible = "arm,scmi-shmem";\n'
    '\t\t\treg = <0x00 0x4f000000 0x00 0x100>;\n'
    '\t\t\tno-map;\n'
    '\t\t\tphandle = <0x7010>;\n'
    '\t\t};\n\n'
    '\t\tscmi-shmem@4f000100 {\n'
    '\t\t\tcompatible = "arm,scmi-shmem";\n'
    '\t\t\treg = <0x00 0x4f000100 0x00 0x100>;\n'
    '\t\t\tno-map;\n'
    '\t\t\tphandle = <0x7011>;\n'
    '\t\t};\n'
    '\t};\n\n'
    '\tshmem-in-hyp@40201000 {\n'
    '\t\tcompatible = "arm,scmi-shmem";\n'
    '\t\treg = <0x00 0x40201000 0x00 0x100>;\n'
    '\t\tphandle = <0x7012>;\n'
    '\t};\n\n'
    '\tfirmware {\n'
    '\t\tscmi {\n'
    '\t\t\tcompatible = "arm,scmi-smc";\n'
    '\t\t\tarm,smc-id = <0x82000010>;\n'
    '\t\t\tshmem = <0x7010>;\n'
    '\t\t};\n\n'
    '\t\tscmi-param {\n'
    '\t\t\tcompatible = "arm,scmi-smc-param";\n'
    '\t\t\tarm,smc-id = <0x82000011>;\n'
    '\t\t\tshmem = <0x7011>;\n'
    '\t\t};\n\n'
    '\t\tscmi-hyp {\n'
    '\t\t\tcompatible = "arm,scmi-smc";\n'
    '\t\t\tarm,smc-id = <0x82000012>;\n'
    '\t\t\tshmem = <0x7012>;\n'
    '\t\t};\n'
    '\t};\n')


def idle(text):
    text, n = re.subn(r'^(\t\tcpu@[0-9a-f]+ \{\n)',
                      '\\1\t\t\tcpu-idle-states = <0x7001 0x7002>;\n',
                      text, flags=re.M)
    if not n:
        sys.exit('no /cpus/cpu@N nodes in ' + src)
    text, n = re.subn(r'^(\tcpus \{\n(?:\t\t#[a-z-]+ = <[^>]*>;\n)*\n?)',
                      lambda m: m.group(1) + IDLE_STATES, text, flags=re.M)
    if n != 1:
        sys.exit('no /cpus node in ' + src)
    return add_root_nodes(text, SCMI_NODES)


case, src, dst = sys.argv[1:4]
text = open(src).read()
if case == 'idle':
    open(dst, 'w').write(idle(text))
    sys.exit(0)
if case in ('fwmem', 'fwclash'):
    open(dst, 'w').write(fwmem(text) if case == 'fwmem' else fwclash(text))
    sys.exit(0)
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
text = add_root_nodes(text, bus)
text = re.sub(r'stdout-path = "[^"]*";', 'stdout-path = "%s";' % path, text)
open(dst, 'w').write(text)
