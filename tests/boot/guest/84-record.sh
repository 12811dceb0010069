#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of 84-record.sh: hyptrace record of the workload (N per
# CPU, workload.sh) with the host's sched_switch and irq events,
# CLOCK_BOOTTIME before and after it (@before, @after) and whether the
# events -k names were on meanwhile (@irq_enabled, @sched_enabled); the
# flight and keep recordings of LOSSN events written while the recorder is
# stopped (84-record-stall.sh); each recorder's status (@rc_main,
# @rc_flight, @rc_keep); an unknown event's error (@bad_event lines) and
# buffer_size_kb afterwards (@after_record);
# then main.dat, main-host.dat, flight.dat and keep.dat, each sent out in
# base64 between "@B64 FILE" and "@END FILE".
#
# usage: 84-record.sh N LOSSN (with /root/write_events, /root/workload.sh,
#        /root/84-record-stall.sh)
n=$1
lossn=$2
cd /tmp || exit 1
echo "@before=$(cut -d" " -f1 /proc/uptime)"
# shellcheck disable=SC2016 # expands in the shell hyptrace record runs
hyptrace record -o main.dat -b 64 -k sched:sched_switch -k irq -- sh -c '
	E=/sys/kernel/tracing/events
	echo "@irq_enabled $(cat $E/irq/irq_handler_entry/enable $E/irq/irq_handler_exit/enable | tr -d "\n")"
	echo "@sched_enabled $(cat $E/sched/sched_switch/enable)"
	sh /root/workload.sh "$1"' _ "$n"
echo "@rc_main=$?"
echo "@after=$(cut -d" " -f1 /proc/uptime)"
hyptrace record -o flight.dat -e selftest -b 7 -C 1 -- sh /root/84-record-stall.sh "$lossn"
echo "@rc_flight=$?"
hyptrace record -o keep.dat -e selftest -b 7 -C 1 --no-overwrite -- sh /root/84-record-stall.sh "$lossn"
echo "@rc_keep=$?"
hyptrace record -e nosuch -o bad.dat -- true 2>&1 | sed "s/^/@bad_event /"
echo "@bad_event_rc=$?"
sed "s/^/@after_record /" "$(hyptrace-dir)/buffer_size_kb"
for f in main.dat main-host.dat flight.dat keep.dat; do
	echo "@B64 $f"; base64 "$f" 2> /dev/null || true; echo "@END $f $(wc -c 2> /dev/null < "$f" || echo none)"
done
