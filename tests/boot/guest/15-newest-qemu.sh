#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of 15-newest-qemu.sh: hyptrace record of selftest events
# while CPUs 1-3 go off and on again and each CPU writes 10 (CPU c's ids
# c * 1000 + 1 on), its per-CPU summary as @sum lines; then the CPUs
# online (@online).
#
# usage: 15-newest-qemu.sh (with /root/write_events)
# shellcheck disable=SC2016 # expands in the shell hyptrace record runs
hyptrace record -e selftest -o /tmp/t.dat -- sh -c '
	for c in 1 2 3; do echo 0 > /sys/devices/system/cpu/cpu$c/online; done
	for c in 1 2 3; do echo 1 > /sys/devices/system/cpu/cpu$c/online; done
	for c in 0 1 2 3; do /root/write_events $c $((c * 1000 + 1)) 10 || exit 1; done' |
	tr -s " " | sed "s/^ /@sum /"
echo "@online=$(cat /sys/devices/system/cpu/online)"
