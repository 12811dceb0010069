#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of 88-virtio-agent.sh: `hyptrace agent` (agent.sh), then
# three rounds the listener starts and stops: N selftest events per CPU
# once started (NBIG in round 3, after 2 s for the test to stop the
# listener, then waiting for the agent to drop pages), QUIET per CPU once
# stopped, each step as an "@round R ..." line; then the agent ended
# (after 120 s at most): its status as @agent_rc, its output as @agent
# lines.
#
# usage: 88-virtio-agent.sh N NBIG QUIET (with /root/agent.sh,
#        /root/write_events)
# (before the first command: for the whole file)
# shellcheck disable=SC2154 # $alog and $apid are agent_start's (agent.sh)
n_round=$1
nbig=$2
quiet=$3
# shellcheck source=/dev/null # agent_start, waitn (guest/agent.sh)
. /root/agent.sh
agent_start ready -e selftest -b 4096 --stall-ms 100
for r in 1 2 3; do
	waitn "started (round $r)"
	n=$n_round
	if [ $r = 3 ]; then n=$nbig; echo "@round $r started"; sleep 2; echo "@writing $(cut -d" " -f1 /proc/uptime)"; else echo "@round $r started"; fi
	for c in 0 1 2 3; do /root/write_events $c $((r * 1000000 + c * 100000 + 1)) "$n" >/dev/null || exit 1; done
	echo "@round $r written $(cut -d" " -f1 /proc/uptime)"
	[ $r != 3 ] || { waitn "dropping pages"; echo "@round $r dropping $(cut -d" " -f1 /proc/uptime)"; }
	waitn "stopped (round $r)"
	for c in 0 1 2 3; do /root/write_events $c $((r * 1000000 + 900000 + c * 10000 + 1)) "$quiet" >/dev/null || exit 1; done
	echo "@round $r quiet"
done
(sleep 120; kill "$apid") 2>/dev/null &
wait "$apid"
echo "@agent_rc=$?"
sed "s/^/@agent /" /tmp/agent.log
