#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of 36-undef.sh: undef_probe.ko's ACTLR_EL1 read, written
# from CPU 1 and from CPU 2 through PROBE (the writer dies of the oops:
# @probe1, @probe2 give its status), with the hypervisor tracing hyp_enter
# and hyp_exit; then the trace's traps as @T lines and @alive=42, to show
# the guest ran on. Tracing is set up in a subshell: without the
# hypervisor the probes still run, and the test fails on what they show.
#
# usage: 36-undef.sh PROBE (with /root/trace-on.sh, see lib.sh)
probe=$1
set +e
R=/sys/kernel/tracing/remotes/hypervisor
# shellcheck source=/dev/null # trace_on_script's commands (tests/boot/lib.sh)
(. /root/trace-on.sh) || echo "@tracing=off"
insmod /lib/modules/hyptrace/undef_probe.ko || exit 1
for c in 1 2; do
	# shellcheck disable=SC2016 # expands in the shell taskset runs
	taskset -c $c sh -c 'echo 1 > "$1"' _ "$probe"
	echo "@probe$c=$?"
done
echo 0 > $R/tracing_on
grep -a "reason=trap" $R/trace | sed "s/^/@T /"
echo "@alive=$((6 * 7))"
