#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The MMIO rows of make bench, in the guest: bench_mmio.ko (bench/module/)
# untraced, traced with no event on, and traced with mmio_read and
# mmio_unhandled recorded (the decoded ldp records two mmio_reads, the
# stepped SIMD load one mmio_unhandled). Prints bench_mmio's "@bench mmio ..." lines,
# one per run, labelled events=none|off|on.
#   mmio_bench.sh [MODULE] [N]
set -e
KO=${1:-/root/bench_mmio.ko}
N=${2:-20000}
D=$(hyptrace-dir)

run() {
	insmod "$KO" n="$N" trace="$2"
	rmmod bench_mmio
	dmesg | grep -a "@bench mmio" | tail -n 1 | sed "s/^.*@bench mmio /@bench mmio events=$1 /"
}

run none 0
echo 0 > "$D/tracing_on"
echo 0 > "$D/events/enable"
run off 1
echo 1 > "$D/events/hypervisor/mmio_read/enable"
echo 1 > "$D/events/hypervisor/mmio_unhandled/enable"
echo 1 > "$D/tracing_on"
run on 1
echo 0 > "$D/tracing_on"
