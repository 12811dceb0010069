#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of 39-maint-window.sh: maint_run's format (@F lines); the
# maint_window file before arming (@W0), its answers to 61s, 1x and 30s
# (@too_long_rc, @bad_rc, @arm_rc) and what it shows then (@W1); PROBE's
# storm and its hypercall checks; closing with 0 (@close_rc, @W2); a 200 ms
# window worked through until the file reads "off" (@expiry_loops, @W3)
# and the storm again, with the maint_run count before and after it
# (@before, @after); the trace's maint_run lines (@T) and maint_probe's own
# "@" lines. With "record": the storm again under hyptrace record, its
# status (@rec_rc) and maint.dat sent out in base64 between "@B64
# maint.dat" and "@END maint.dat". Last @alive=42, to show it got there.
#
# usage: 39-maint-window.sh PROBE [record] (with /root/trace-on.sh, see
#        lib.sh)
probe=$1
record=$2
set +e
# shellcheck source=/dev/null # trace_on_script's commands (tests/boot/lib.sh)
(. /root/trace-on.sh) || echo "@tracing=off"
D=$(hyptrace-dir)
echo "@dir=$D"
cd "$D" || exit 1
sed "s/^/@F /" events/hypervisor/maint_run/format
sed "s/^/@W0 /" maint_window
# put KEY VALUE: VALUE written to maint_window, the write's status as @KEY
put() {
	echo "$2" > maint_window && rc=0 || rc=$?
	echo "@$1=$rc"
}
put too_long_rc 61s
put bad_rc 1x
put arm_rc 30s
sed "s/^/@W1 /" maint_window
insmod "$probe" && rmmod maint_probe
insmod "$probe" op=call && rmmod maint_probe
put close_rc 0
sed "s/^/@W2 /" maint_window
echo 200ms > maint_window
i=0
while grep -q ns maint_window && [ $i -lt 100000 ]; do
	i=$((i + 1)); ls / > /dev/null
done
echo "@expiry_loops=$i"
sed "s/^/@W3 /" maint_window
echo "@before=$(grep -a -c maint_run trace)"
insmod "$probe" && rmmod maint_probe
echo "@after=$(grep -a -c maint_run trace)"
echo 0 > tracing_on
grep -a maint_run trace | sed "s/^/@T /"
dmesg | grep -a "maint_probe: @" | sed "s/^.*maint_probe: //"
if [ "$record" = record ]; then
	# Recorded, for the tools
	cd /tmp || exit 1
	# shellcheck disable=SC2016 # expands in the shell hyptrace record runs
	hyptrace record -o maint.dat -e maint_run -- sh -c 'echo 5s > "$(hyptrace-dir)/maint_window" && insmod "$1" && rmmod maint_probe && echo 0 > "$(hyptrace-dir)/maint_window"' _ "$probe" > rec.log 2>&1
	echo "@rec_rc=$?"
	echo "@B64 maint.dat"; base64 maint.dat 2> /dev/null || true; echo "@END maint.dat $(wc -c 2> /dev/null < maint.dat || echo none)"
fi
echo "@alive=$((6 * 7))"
