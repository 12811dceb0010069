#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of 70-ftrace-remotes.sh: the kernel's ftracetest on
# test.d/remotes/hypervisor/ (our remote) and on test.d/remotes/*.tc (the
# kernel's test remote, remote_test.ko: @error if it does not load), each
# suite's output between @begin=NAME and @end=NAME, so that its summary
# cannot be confused with the other's; then hyptrace.ko's worst clock
# error (@clock_error_ns).
#
# usage: 70-ftrace-remotes.sh
[ -d /sys/kernel/tracing/remotes/hypervisor ] || exit 1
insmod /lib/modules/hyptrace/remote_test.ko || echo "@error=remote_test.ko"
cd /usr/share/kselftest/ftrace || exit 1
# suite NAME ARGS...: ftracetest -v ARGS between @begin=NAME and @end=NAME
suite() {
	name=$1
	shift
	echo "@begin=$name"
	./ftracetest -v "$@"
	echo "@end=$name rc=$?"
}
suite hypervisor test.d/remotes/hypervisor/
suite test test.d/remotes/*.tc
echo "@clock_error_ns=$(cat /sys/module/hyptrace/parameters/clock_worst_error_ns)"
