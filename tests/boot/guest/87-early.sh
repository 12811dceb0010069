#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of 87-early.sh, the early capture case: what tracing_on,
# hyp_enter's and selftest's enable and buffer_size_kb read after the
# adoption (@tracing_on, @enter_on, @selftest_on, @size); the first read of
# trace as @T lines, with /proc/uptime right after it (@uptime) and its
# length (@lines); then hyptrace record --keep's status (@rec_rc), its
# output (@rec lines) and its file sent out in base64 between "@B64
# early.dat" and "@END early.dat".
#
# usage: 87-early.sh
set -e
cd "$(hyptrace-dir)"
echo "@tracing_on=$(cat tracing_on) @enter_on=$(cat events/hypervisor/hyp_enter/enable) @selftest_on=$(cat events/hypervisor/selftest/enable)"
echo "@size=$(cut -d" " -f2 buffer_size_kb)"
cat trace > /tmp/trace
echo "@uptime=$(cut -d" " -f1 /proc/uptime)"
sed "s/^/@T /" /tmp/trace
echo "@lines=$(wc -l < /tmp/trace)"
dmesg | grep "early buffer adopted" || true
# hyptrace record --keep starts from the same early events
hyptrace record --keep -o /tmp/early.dat -- true > /tmp/rec.log 2>&1 && rc=0 || rc=$?
echo "@rec_rc=$rc"
sed "s/^/@rec /" /tmp/rec.log
echo "@B64 early.dat"; base64 /tmp/early.dat 2> /dev/null || true; echo "@END early.dat $(wc -c 2> /dev/null < /tmp/early.dat || echo none)"
