#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of a probe test (38-setway, 45-fw-calls): with the
# hypervisor tracing, load probe module MODULE, whose init makes the
# accesses under test (@insmod: its status); then tracing off, the trace's
# events of REASON as lines that begin with TAG, and @alive=42 to show the
# guest ran on. Tracing is set up in a subshell: without the hypervisor
# the probe still runs, and the test fails on what it shows.
#
# usage: probe-trace.sh MODULE REASON TAG (with /root/trace-on.sh, see lib.sh)
module=$1
reason=$2
tag=$3
set +e
R=/sys/kernel/tracing/remotes/hypervisor
# shellcheck source=/dev/null # trace_on_script's commands (tests/boot/lib.sh)
(. /root/trace-on.sh) || echo "@tracing=off"
insmod "/lib/modules/hyptrace/$module.ko"
echo "@insmod=$?"
echo 0 > $R/tracing_on
grep -a "reason=$reason" $R/trace | sed "s/^/$tag /"
echo "@alive=$((6 * 7))"
