#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of 93-mmio-trace.sh's second boot: regions added and
# removed at run time through the mmio file (the PL061 GPIO, read through
# phys_probe.ko; RAM; the PL011 while LINE is printed on the console), the
# trace's MMIO events as @T lines. The kernel's console messages are
# turned down first: one printed in the middle of LINE (a module's load
# message, a rate-limited warning) would split it on the console although
# no character was lost.
#
# usage: 93-mmio-runtime.sh LINE (with /root/trace-on.sh, see lib.sh)
#
# "echo ... > mmio; echo @...=$?": the status wanted is the write's, the
# echo's that made it (shellcheck's SC2320 guards against the other case)
# shellcheck disable=SC2320
set +e
line=$1
echo 1 > /proc/sys/kernel/printk
# shellcheck source=/dev/null # trace_on_script's commands (tests/boot/lib.sh)
(. /root/trace-on.sh) || echo "@tracing=off"
cd "$(hyptrace-dir)" || exit 1
insmod /lib/modules/hyptrace/phys_probe.ko
echo 0x9030000+0x1000:r > mmio; echo "@add_gpio=$?"
echo 0x9030000+0x1000:r > mmio 2> /tmp/busy; echo "@add_again=$? $(grep -c "busy" /tmp/busy)"
echo 0x40000000+0x1000:r > mmio 2> /tmp/ram; echo "@add_ram=$? $(grep -c "not permitted" /tmp/ram)"
echo "r 0x9030fe0" > /sys/kernel/debug/phys_probe
sed "s/^/@M /" mmio
echo -0x9030000+0x1000 > mmio; echo "@del_gpio=$?"
echo "r 0x9030fe0" > /sys/kernel/debug/phys_probe
echo 0x9000000+0x1000:w > mmio; echo "@add_uart=$?"
echo "$line"
echo -0x9000000+0x1000 > mmio; echo "@del_uart=$?"
echo "@regions=$(wc -l < mmio)"
echo 0 > tracing_on
grep -a -E "mmio_" trace | sed "s/^/@T /"
echo "@alive=$((6 * 7))"
