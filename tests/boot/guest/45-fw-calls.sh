#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of 45-fw-calls.sh: fwcall_probe.ko's firmware calls while
# tracing, then the trace's firmware exits.
#
# usage: 45-fw-calls.sh (with /root/trace-on.sh, see lib.sh)
set +e
R=/sys/kernel/tracing/remotes/hypervisor
# shellcheck source=/dev/null # trace_on_script's commands (tests/boot/lib.sh)
(. /root/trace-on.sh) || echo "@tracing=off"
insmod /lib/modules/hyptrace/fwcall_probe.ko
echo "@insmod=$?"
echo 0 > $R/tracing_on
grep -a "reason=firmware" $R/trace | sed "s/^/@F /"
