#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of 87-early.sh, the full early buffer case (booted with
# hyptrace-guest.no-module): bench_hvc.ko's burst of 3,000 null hypercalls
# on CPU 1, then hyptrace.ko loaded; CPU 1's trace_pipe read: the events
# reported lost (@lost), the events read (@read) and the newest one
# (@last, spaces as "_").
#
# usage: 87-early-full.sh (with /root/bench_hvc.ko)
set -e
insmod /root/bench_hvc.ko
taskset -c 1 sh -c "echo 3000 > /sys/module/bench_hvc/parameters/burst"
taskset -c 0 insmod /lib/modules/hyptrace/hyptrace.ko
cd "$(hyptrace-dir)"
timeout 3 cat per_cpu/cpu1/trace_pipe > /tmp/pipe || true
echo "@lost=$(sed -n "s/^CPU:1 \[LOST \([0-9]*\) EVENTS\]/\1/p" /tmp/pipe | awk '{ s += $1 } END { print s + 0 }')"
echo "@read=$(grep -c " hyp_e" /tmp/pipe)"
echo "@last=$(grep " hyp_e" /tmp/pipe | tail -n 1 | sed "s/.* hyp_/hyp_/; s/ /_/g")"
