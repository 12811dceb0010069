#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# lastboot.sh KB CALLS: row 5e's guest side, run on both boots of
# `qemu-run.sh --reboots 1 --append panic=1` under -icount shift=0. The
# first boot (no last boot) loads a buffer of KB KiB per CPU with only
# hyp_enter and hyp_exit on, makes CALLS of bench_hvc.ko's null hypercalls
# on each CPU (two events each; 0: the buffer stays nearly empty, holding
# only the panic's own calls), and panics. The next boot's hypervisor
# checks the pages before Linux runs; this side only says what it kept.
# The bench takes the two boots' "ns after hypervisor entry" lines from
# the console: the second less the first is the check.
#
#   qemu-run.sh --reboots 1 --append panic=1 \
#	--add bench/module/bench_hvc.ko:/root/bench_hvc.ko \
#	--add bench/guest/lastboot.sh:/root/lastboot.sh \
#	--cmd 'sh /root/lastboot.sh 7800 0' -- -icount shift=0,sleep=off
kb=$1
calls=$2
# bench_hvc.ko takes at most this many calls a write
BURST_MAX=100000
if [ -d /sys/kernel/tracing/remotes/hypervisor_last_boot ]; then
	dmesg | grep 'hyptrace: last boot' | sed 's/^.*hyptrace: /@bench lastboot_dmesg /'
	exit 0
fi
insmod /root/bench_hvc.ko || exit 1
cd "$(hyptrace-dir)" || exit 1
echo 0 > tracing_on
echo 0 > trace
echo "$kb" > buffer_size_kb || exit 1
echo 0 > events/enable
echo 1 > events/hypervisor/hyp_enter/enable
echo 1 > events/hypervisor/hyp_exit/enable
echo 1 > tracing_on
for c in 0 1 2 3; do
	left=$calls
	while [ "$left" -gt 0 ]; do
		n=$left
		[ "$n" -le $BURST_MAX ] || n=$BURST_MAX
		taskset -c $c sh -c "echo $n > /sys/module/bench_hvc/parameters/burst" || exit 1
		left=$((left - n))
	done
done
echo "@bench lastboot_panic kb=$kb calls=$calls"
echo c > /proc/sysrq-trigger
sleep 10
exit 1
