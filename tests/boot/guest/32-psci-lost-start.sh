#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of 32-psci-lost-start.sh: CPU online after its lost start
# at boot, then offline and online again, with what sysfs says after each.
#
# usage: 32-psci-lost-start.sh CPU
cpu=$1
cpus=/sys/devices/system/cpu
echo "@boot_online=$(cat $cpus/online)"
rc=0
# shellcheck disable=SC2320 # echo fails as its write does: its status
echo 1 > "$cpus/cpu$cpu/online" || rc=$?
echo "@online_rc=$rc"
echo "@after_online=$(cat $cpus/online)"
echo 0 > "$cpus/cpu$cpu/online" && echo 1 > "$cpus/cpu$cpu/online"
echo "@again=$(cat $cpus/online)"
