#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of 83-trace-format.sh: three selftest events on CPU, its
# trace as @TR lines, header_page, header_event and every event's format
# as "@F FILE line" lines, and the raw pages of CPU's buffer
# (carveout_dump.ko's "carveout_dump: page" lines).
#
# usage: 83-trace-format.sh CPU (with /root/trace-on.sh, see lib.sh)
cpu=$1
# In this shell: it leaves us in the trace directory, under set -e
# shellcheck source=/dev/null # trace_on_script's commands (tests/boot/lib.sh)
. /root/trace-on.sh
taskset -c "$cpu" sh -c "echo 5 > write_event; echo 18446744073709551615 > write_event; echo 0 > write_event"
echo 0 > tracing_on
sed "s/^/@TR /" "per_cpu/cpu$cpu/trace"
for f in events/header_page events/header_event events/hypervisor/*/format; do
	sed "s|^|@F $f |" "$f"
done
insmod /lib/modules/hyptrace/carveout_dump.ko cpu="$cpu" || true
