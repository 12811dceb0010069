#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of 48-raspi3b.sh before the board checks: with CPU 2 off,
# psci_probe.ko's CPU_ON of it with a bad target, ROUNDS back-to-back
# rounds, an entry at OUTSIDE_RAM and one at HYP_REGION; CPU_ON of CPU 1
# (already on) and of MPIDR 7 (no such CPU); then CPU 2 on again
# (@cpu2_online). The answers are psci_probe's console lines.
#
# usage: 48-raspi3b.sh ROUNDS OUTSIDE_RAM HYP_REGION
P=/lib/modules/hyptrace/psci_probe.ko
echo 0 > /sys/devices/system/cpu/cpu2/online
for args in "bad=1" "rounds=$1" "once=1 pc=$2" "once=1 pc=$3"; do
	# one word per psci_probe parameter
	# shellcheck disable=SC2086
	insmod $P mpidr=0x2 $args && rmmod psci_probe
done
insmod $P mpidr=0x1 once=1 && rmmod psci_probe
insmod $P mpidr=0x7 once=1 && rmmod psci_probe
echo 1 > /sys/devices/system/cpu/cpu2/online
# shellcheck disable=SC2320 # echo fails as its write does: its status
echo "@cpu2_online=$?"
