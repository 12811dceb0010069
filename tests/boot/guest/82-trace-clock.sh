#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of 82-trace-clock.sh: two clock updates hvc_probe.ko
# sends (1 s backwards, 2^59 ns ahead), their answers as @clock_back and
# @clock_leap (when the kernel has hvc_probe.ko); then clock_check's N
# writes per CPU with CLOCK_BOOTTIME before and after each, checked against
# the trace's timestamps: @written, @traced, @checked, @missing, @bad (and
# up to three @outside=id,before_us,event_us,after_us) and @span_us.
#
# usage: 82-trace-clock.sh N (with /root/trace-on.sh, see lib.sh;
#        /root/clock_check)
n=$1
# In this shell: it leaves us in the trace directory, under set -e
# shellcheck source=/dev/null # trace_on_script's commands (tests/boot/lib.sh)
. /root/trace-on.sh
probe() { insmod /lib/modules/hyptrace/hvc_probe.ko fid=0xc6000008 clock=1 "$@" && rmmod hvc_probe; dmesg | grep "hvc_probe: fid=" | tail -n 1 | sed "s/^.* ret=\([-0-9]*\) .*$/\1/"; }
if [ -f /lib/modules/hyptrace/hvc_probe.ko ]; then
	echo "@clock_back=$(probe offset_ns=-1000000000)"
	echo "@clock_leap=$(probe offset_ns=576460752303423488)"
fi
/root/clock_check "$n" "$PWD/write_event" > /tmp/stamps
echo 0 > tracing_on
# "id ts_us" from the trace, "id before_ns after_ns" from the program.
# Within the first second ts_us starts with 0, which busybox awk would
# read as octal: the zeros go first.
sed -n "s/^\[[0-9]*\][[:space:]]*\([0-9]*\)\.\([0-9]*\): selftest id=\([0-9]*\)$/\3 \1\2/p" trace > /tmp/events
echo "@written=$(wc -l < /tmp/stamps) @traced=$(wc -l < /tmp/events)"
awk 'NR == FNR { v = $2; sub(/^0+/, "", v); ts[$1] = v + 0; next }
     { n++; us0 = int($2 / 1000); us1 = int($3 / 1000)
       if (!($1 in ts)) { missing++; next }
       t = ts[$1]
       if (t < us0 || t > us1) { bad++; if (bad < 4) print "@outside=" $1 "," us0 "," t "," us1 }
       if (t - us0 > worst) worst = t - us0 }
     END { print "@checked=" n " @missing=" missing + 0 " @bad=" bad + 0 " @span_us=" worst + 0 }' /tmp/events /tmp/stamps
