#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of 50-hvc.sh: hvc_probe.ko calls each FID with no
# arguments (its answer in dmesg as "hvc_probe: fid=..."), then HYP_LOG
# (function ID HYP_LOG_FID) for the log's start, past its end, the last
# boot's log and a log that does not exist, each answer as an
# "@log_start", "@log_past", "@log_last" or "@log_bad" line; then
# @alive=42, to show the guest still runs commands.
#
# usage: 50-hvc.sh HYP_LOG_FID FID...
set -e
hyp_log=$1
shift

# probe FID [A1 [A2]]: one hypercall through hvc_probe.ko
probe() {
	insmod /lib/modules/hyptrace/hvc_probe.ko fid="$1" ${2:+a1=$2} ${3:+a2=$3}
	rmmod hvc_probe
}

# log_probe TAG LOG POS: HYP_LOG's answer, as "@TAG fid=..."
log_probe() {
	probe "$hyp_log" "$2" "$3"
	dmesg | grep -o "hvc_probe: fid=.*" | tail -n 1 | sed "s/^hvc_probe: /@$1 /"
}

for f in "$@"; do
	probe "$f"
done
log_probe log_start 0 0
log_probe log_past 0 0xffffffffffffffff
log_probe log_last 1 0
log_probe log_bad 2 0
echo "@alive=$((6 * 7))"
