#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of 93-mmio-trace.sh's first boot: mmio_probe.ko's
# sequences (seq, ldp, call) while tracing the MMIO events, its findings
# as @ lines, the trace as @T lines, then a hyptrace record of op=seq
# sent out in base64 between "@B64 mmio.dat" and "@END mmio.dat".
#
# usage: 93-mmio-trace.sh (with /root/trace-on.sh, see lib.sh)
set +e
# shellcheck source=/dev/null # trace_on_script's commands (tests/boot/lib.sh)
(. /root/trace-on.sh) || echo "@tracing=off"
for op in seq ldp call; do
	insmod /lib/modules/hyptrace/mmio_probe.ko op=$op && rmmod mmio_probe
done
dmesg | grep -a "mmio_probe: @" | sed "s/^.*mmio_probe: //"
cd "$(hyptrace-dir)" || exit 1
echo 0 > tracing_on
grep -a -E "mmio_|selftest" trace | sed "s/^/@T /"
cd /tmp || exit 1
hyptrace record -o mmio.dat -e mmio_read -e mmio_write -e mmio_unhandled \
	-e selftest -- sh -c "insmod /lib/modules/hyptrace/mmio_probe.ko op=seq && rmmod mmio_probe" \
	> rec.log 2>&1; echo "@rec_rc=$?"
echo "@B64 mmio.dat"; base64 mmio.dat 2> /dev/null || true; echo "@END mmio.dat $(wc -c 2> /dev/null < mmio.dat || echo none)"
echo "@alive=$((6 * 7))"
