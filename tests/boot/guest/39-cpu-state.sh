#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of 39-cpu-state.sh: the early trace of the boot as @B
# lines, Linux's vectors, a hyptrace record --keep of it sent out in base64
# between "@B64 boot.dat" and "@END boot.dat"; then, tracing again, CPU 1
# offline and online, user programs on every CPU and the set/way and
# IMPDEF probes, that trace as @H lines.
#
# usage: 39-cpu-state.sh
set -e
cd "$(hyptrace-dir)"
sed "s/^/@B /" trace
# shellcheck disable=SC2016 # awk's own $3 and $1
echo "@vectors=$(awk '$3 == "vectors" { print $1 }' /proc/kallsyms)"
hyptrace record --keep -o /tmp/boot.dat -- true > /tmp/rec.log 2>&1 && rc=0 || rc=$?
echo "@rec_rc=$rc"
echo "@B64 boot.dat"; base64 /tmp/boot.dat 2> /dev/null || true; echo "@END boot.dat $(wc -c 2> /dev/null < /tmp/boot.dat || echo none)"
echo 0 > trace
echo 1 > tracing_on
echo 0 > /sys/devices/system/cpu/cpu1/online
echo 1 > /sys/devices/system/cpu/cpu1/online
echo "@online=$(cat /sys/devices/system/cpu/online)"
for _ in $(seq 1 20); do ls / > /dev/null; cat /proc/stat > /dev/null; done
insmod /lib/modules/hyptrace/setway_probe.ko
insmod /lib/modules/hyptrace/impdef_probe.ko
echo 0 > tracing_on
sed "s/^/@H /" trace
echo "@alive=$((6 * 7))"
