#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# fwcall.sh [CALLS [REPEAT]]: in the guest, under -icount shift=0, the
# instructions of one decoded firmware call (bench_fwcall.ko's
# ARCH_FEATURES(SMCCC_VERSION) by HVC, answered by the hypervisor) with
# tracing off and with only fw_arch on, pinned to CPU 1, the best of REPEAT
# runs: one line "@fwcall EVENTS INSTRUCTIONS" each. Run against a
# hypervisor built with HYP_TRACE_SITES=0 too: the difference of the "off"
# lines is what the call's trace sites cost when off.
#
#   qemu-run.sh --add bench/module/bench_fwcall.ko:/root/bench_fwcall.ko \
#	--add bench/guest/fwcall.sh:/root/fwcall.sh --cmd 'sh /root/fwcall.sh' \
#	-- -icount shift=0,sleep=off
calls=${1:-20000}
repeat=${2:-5}
P=/sys/module/bench_fwcall/parameters
insmod /root/bench_fwcall.ko || exit 1
cd "$(hyptrace-dir)" || exit 1
echo 0 > tracing_on
echo 0 > events/enable
echo 64 > buffer_size_kb
for ev in off fw_arch; do
	if [ "$ev" = fw_arch ]; then
		echo 1 > events/hypervisor/fw_arch/enable
		echo 1 > tracing_on
	fi
	best=
	i=0
	while [ $i -lt "$repeat" ]; do
		taskset -c 1 sh -c "echo $calls > $P/calls" || exit 1
		e=$(cat $P/elapsed_ns)
		if [ -z "$best" ] || [ "$e" -lt "$best" ]; then best=$e; fi
		i=$((i + 1))
	done
	echo "@fwcall $ev $((best / calls))"
done
echo 0 > tracing_on
