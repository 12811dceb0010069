#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of 60-uboot.sh: /chosen's MARK property (@tree: the tree
# U-Boot loaded from the disk has it), the CPUs online after boot
# (@booted) and after CPUs 1-3 each went down and up again (@online), the
# run's own initramfs file /root/uboot-token (@token); then tracing as
# without U-Boot: on, a write from every CPU, off (@traced of the 4
# selftest events, @cpus with hypercalls traced, @frozen: yes if writes
# after tracing_on 0 left trace as it was).
#
# usage: 60-uboot.sh MARK
set -e
echo "@tree=$(tr -d "\0" < "/proc/device-tree/chosen/$1")"
cpus=/sys/devices/system/cpu
echo "@booted=$(cat $cpus/online)"
for c in 1 2 3; do
	echo 0 > $cpus/cpu$c/online
	echo 1 > $cpus/cpu$c/online
done
echo "@online=$(cat $cpus/online)"
echo "@token=$(cat /root/uboot-token)"
# Tracing works the same after U-Boot: on, a write from every CPU, off.
cd /sys/kernel/tracing/remotes/hypervisor
echo 1 > events/enable
echo 1 > tracing_on
for c in 0 1 2 3; do taskset -c $c sh -c "echo $((c + 500)) > write_event"; done
echo 0 > tracing_on
n=$(wc -l < trace)
for c in 0 1 2 3; do taskset -c $c sh -c "echo 900 > write_event"; done
echo "@traced=$(grep -c "selftest id=50[0-3]$" trace) @cpus=$(sed -n "s/^\[0*\([0-9]\)\].*hyp_enter reason=hvc.*/\1/p" trace | sort -u | tr -d "\n") @frozen=$([ "$(wc -l < trace)" = "$n" ] && echo yes)"
