#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of 31-psci-cpu-on.sh: CPU offline, psci_probe.ko's bad
# target (and the CPU_ON lines the trace has for it), its ROUNDS of CPU_ONs
# back to back, then CPU online again.
#
# usage: 31-psci-cpu-on.sh CPU MPIDR PROBE CPU_ON ROUNDS
#        (with /root/trace-on.sh, see lib.sh)
cpu=$1
mpidr=$2
probe=$3
cpu_on=$4
rounds=$5
cpus=/sys/devices/system/cpu
echo 0 > "$cpus/cpu$cpu/online"
# shellcheck source=/dev/null # trace_on_script's commands (tests/boot/lib.sh)
. /root/trace-on.sh
insmod "$probe" mpidr="$mpidr" bad=1
echo 0 > tracing_on
grep -a "func_id=$cpu_on" trace | sed "s/^/@T /"
rmmod psci_probe
insmod "$probe" mpidr="$mpidr" rounds="$rounds"
rmmod psci_probe
echo 1 > "$cpus/cpu$cpu/online"
echo "@online=$(cat $cpus/online)"
