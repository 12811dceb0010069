#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of 38-setway.sh: setway_probe.ko's DC ISW, CSW and CISW
# on every CPU (@insmod: its status), with the hypervisor tracing
# hyp_enter and hyp_exit; then the trace's traps as @T lines and
# @alive=42, to show the guest ran on. Tracing is set up in a subshell:
# without the hypervisor the probe still runs, and the test fails on what
# it shows.
#
# usage: 38-setway.sh (with /root/trace-on.sh, see lib.sh)
set +e
R=/sys/kernel/tracing/remotes/hypervisor
# shellcheck source=/dev/null # trace_on_script's commands (tests/boot/lib.sh)
(. /root/trace-on.sh) || echo "@tracing=off"
insmod /lib/modules/hyptrace/setway_probe.ko
echo "@insmod=$?"
echo 0 > $R/tracing_on
grep -a "reason=trap" $R/trace | sed "s/^/@T /"
echo "@alive=$((6 * 7))"
