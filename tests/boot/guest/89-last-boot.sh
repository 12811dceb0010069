#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of 89-last-boot.sh; it runs on both boots of a case and
# tells them apart by LAST_BOOT_DIR (the last boot's trace directory: the
# remote's or the fallback's).
#
# first boot (@boot=1): the "hyptrace: last boot" lines of a cold boot
# (@first_lb_lines); N selftest events on each of CPUs 0-3 into a 64 KiB
# buffer, all events on; with SCRIBBLE 1, lastboot_scribble.ko breaks CPU
# 1's two oldest data pages (@scribble_rc); then a panic (sysrq c).
#
# second boot (@boot=2): the last boot as its files show it: dmesg's lines,
# tracing_on before and after writing 1 to it (@on_rc, @on_err), clearing
# trace (@clear_rc), trace read twice (@trace_again), CPU 2's trace,
# hyptrace record --last-boot (@rec_rc), trace_pipe, release (@release_rc,
# @released), a record after release (@again_rc, @again lines); then the
# live buffer still traces (@live). trace.txt, pipe.txt, trace-cpu2.txt and
# lb.dat go out in base64 between "@B64 NAME" and "@END NAME SIZE".
#
# usage: 89-last-boot.sh SCRIBBLE(0|1) LAST_BOOT_DIR N
#
# "echo ... > FILE; echo @...=$?": the status wanted is the write's, the
# echo's that made it (shellcheck's SC2320 guards against the other case)
# shellcheck disable=SC2320
scribble=$1
LB=$2
n=$3
LIVE=$(hyptrace-dir) || exit 1

# send NAME: /tmp/NAME in base64, as tests/boot/lib.sh's guest_file reads it
send() {
	echo "@B64 $1"
	base64 "/tmp/$1" 2> /dev/null || true
	echo "@END $1 $(wc -c 2> /dev/null < "/tmp/$1" || echo none)"
}

# until_true FUNCTION: call it each second until it succeeds, 120 times at most
until_true() {
	i=0
	until "$1" 2> /dev/null || [ $i -ge 120 ]; do
		sleep 1
		i=$((i + 1))
	done
}

if [ ! -d "$LB" ]; then
	echo "@boot=1"
	echo "@first_lb_lines=$(dmesg | grep -c 'hyptrace: last boot')"
	cd "$LIVE" || exit 1
	echo 0 > tracing_on; echo 0 > trace
	echo 64 > buffer_size_kb
	echo 1 > events/enable
	echo 1 > tracing_on
	for c in 0 1 2 3; do /root/write_events $c $((c * 100000 + 1)) "$n" || exit 1; done
	if [ "$scribble" = 1 ]; then
		insmod /lib/modules/hyptrace/lastboot_scribble.ko cpu=1 pages=2
		echo "@scribble_rc=$?"
	fi
	echo "@panicking"
	# shellcheck source=tests/boot/guest/crash.sh
	. /root/crash.sh
fi
echo "@boot=2"
dmesg | grep 'hyptrace: last boot' | sed 's/^.*hyptrace: /@dmesg /'
cd "$LB" || exit 1
echo "@tracing_on=$(cat tracing_on)"
echo 1 > tracing_on 2> /tmp/on.err
echo "@on_rc=$?"
sed 's/^/@on_err /' /tmp/on.err
echo "@tracing_on_after=$(cat tracing_on)"
echo 0 > trace
echo "@clear_rc=$?"
cat trace > /tmp/trace.txt
cat trace > /tmp/trace2.txt
if cmp -s /tmp/trace.txt /tmp/trace2.txt; then echo "@trace_again=same"; else echo "@trace_again=different"; fi
cat per_cpu/cpu2/trace > /tmp/trace-cpu2.txt
hyptrace record --last-boot -o /tmp/lb.dat
echo "@rec_rc=$?"
cat trace_pipe > /tmp/pipe.txt &
p=$!
# Until trace_pipe has given every event trace showed: a state, not a time
# (a loaded host makes the reader slow, not wrong). One that never gets
# there stops waiting after 120 s, and the counts say why. (trace_remote
# unloads the buffer when the reader that read it to its end closes it.)
want=$(grep -c '^\[' /tmp/trace.txt)
pipe_gave_all() { [ "$(grep -c '^\[' /tmp/pipe.txt)" -ge "$want" ]; }
until_true pipe_gave_all
kill $p
wait $p 2> /dev/null
echo "@after_pipe=$(cat buffer_size_kb 2> /dev/null || echo 'no file')"
echo 1 > release
echo "@release_rc=$?"
echo "@released=$(cat release)"
hyptrace record --last-boot -o /tmp/again.dat > /tmp/again.out 2>&1
echo "@again_rc=$?"
sed 's/^/@again /' /tmp/again.out
cd "$LIVE" || exit 1
echo 0 > tracing_on; echo 0 > trace
echo 0 > events/enable; echo 1 > events/hypervisor/selftest/enable
echo 1 > tracing_on
echo 4242 > write_event
echo "@live=$(grep -c 'selftest id=4242$' trace)"
echo 0 > tracing_on
for f in trace.txt pipe.txt trace-cpu2.txt lb.dat; do
	send $f
done
