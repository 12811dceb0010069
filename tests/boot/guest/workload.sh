#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The run 84-record.sh and 86-stream-net.sh record: N selftest events on
# each of CPUs 0-3 (ids CPU * 100000 + 1 on), then CPUs 2 and 3 off and on
# again (PSCI in the trace).
#
# usage: workload.sh N (with /root/write_events)
n=$1
for c in 0 1 2 3; do /root/write_events $c $((c * 100000 + 1)) "$n" || exit 1; done
for c in 2 3; do
	echo 0 > /sys/devices/system/cpu/cpu$c/online
	echo 1 > /sys/devices/system/cpu/cpu$c/online
done
