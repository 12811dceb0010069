#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of 44-stage2.sh: hyp_poke.ko's writes and reads into the
# hypervisor's memory from CPUs 1-3 (each one a fault the guest survives),
# a selftest event on each CPU, then the trace of it all.
#
# usage: 44-stage2.sh POKE VECTOR PRIVATE (with /root/trace-on.sh, see lib.sh)
set +e
poke=$1
vector=$2
private=$3
# shellcheck source=/dev/null # trace_on_script's commands (tests/boot/lib.sh)
(. /root/trace-on.sh) || echo "@tracing=off"
insmod /lib/modules/hyptrace/hyp_poke.ko || exit 1
taskset -c 1 sh -c "echo w $vector > $poke"; echo "@poke1=$?"
taskset -c 2 sh -c "echo r 0x0 > $poke"; echo "@poke2=$?"
taskset -c 3 sh -c "echo w $private > $poke"; echo "@poke3=$?"
cd "$(hyptrace-dir)" || exit 1
for c in 0 1 2 3; do taskset -c $c sh -c "echo $((c + 500)) > write_event"; done
echo 0 > tracing_on
grep -a -E "reason=trap|host_abort|selftest" trace | sed "s/^/@T /"
echo "@alive=$((6 * 7))"
