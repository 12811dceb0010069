#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of 31-psci-cpu-on.sh's stalled boot: psci_probe.ko's
# CPU_ON of MPIDR twice (the first start stalls in the hypervisor, its
# answers are psci_probe's console lines), then the CPUs online.
#
# usage: 31-psci-stalled.sh PROBE MPIDR
insmod "$1" mpidr="$2" once=1
rmmod psci_probe
insmod "$1" mpidr="$2" once=1
echo "@online=$(cat /sys/devices/system/cpu/online)"
