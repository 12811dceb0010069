#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of 41-fw-memory.sh: reads of the hypervisor's region (its
# upper and lower half), of the debug window and of both firmware regions
# from EL1, each one's status, then the trace's host_abort lines.
#
# usage: 41-fw-memory.sh POKE PROBE UPPER LOWER WINDOW
#        (with /root/trace-on.sh, see lib.sh)
set +e
poke=$1
probe=$2
upper=$3
lower=$4
window=$5
# shellcheck source=/dev/null # trace_on_script's commands (tests/boot/lib.sh)
(. /root/trace-on.sh) || echo "@tracing=off"
insmod /lib/modules/hyptrace/hyp_poke.ko || exit 1
insmod /lib/modules/hyptrace/phys_probe.ko || exit 1
taskset -c 1 sh -c "echo r $upper > $poke"; echo "@upper=$?"
taskset -c 2 sh -c "echo r $lower > $poke"; echo "@lower=$?"
taskset -c 3 sh -c "echo r $window > $probe"; echo "@window=$?"
sh -c "echo m 0x4c000000 > $probe"; echo "@memreserve=$?"
sh -c "echo m 0x4e000000 > $probe"; echo "@optee=$?"
cd "$(hyptrace-dir)" || exit 1
echo 0 > tracing_on
grep -a "host_abort" trace | sed "s/^/@T /"
echo "@alive=$((6 * 7))"
